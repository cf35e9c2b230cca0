import { LegalDocument } from '../components/legal-document';
import { brand } from '../config/brand';
import { privacySections } from '../content/privacy';

export function PrivacyPage() {
  return <LegalDocument title="Privacy Policy" lastUpdated={brand.legalLastUpdated} sections={privacySections} />;
}
