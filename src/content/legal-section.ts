interface LegalLink {
  label: string;
  href: string;
}

export interface LegalSection {
  heading: string;
  paragraphs: string[];
  bullets?: string[];
  /** Rendered after the bullets; legal text stays plain data, so a link is its own field. */
  link?: LegalLink;
}
