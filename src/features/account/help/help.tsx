import { HelpCard } from '../../../screens/help-card';

/** Need Help?: a link to the support page; no machine, no services. */
export function Help() {
  return <HelpCard />;
}
