interface LegalLink {
  label: string;
  href: string;
}

/** A table of plain text: its column headings and rows (each as long as `head`). */
interface LegalTable {
  caption: string;
  head: string[];
  rows: string[][];
}

export interface LegalSection {
  heading: string;
  paragraphs: string[];
  bullets?: string[];
  /** Rendered after the bullets. */
  table?: LegalTable;
  /** Rendered after the bullets; legal text stays plain data, so a link is its own field. */
  link?: LegalLink;
}
