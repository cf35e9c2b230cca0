import { TermsPage } from '../../screens/terms-page';
import { mantinePage } from '../../app/frame/mantine-page';

export const PublicPage = mantinePage(TermsPage);
