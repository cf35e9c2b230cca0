import { LegalDocument } from '../components/legal-document';
import { brand } from '../config/brand';
import { termsSections } from '../content/terms';

export function TermsPage() {
  return <LegalDocument title="Terms of Service" lastUpdated={brand.legalLastUpdated} sections={termsSections} />;
}
