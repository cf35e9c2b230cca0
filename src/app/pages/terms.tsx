import { TermsPage } from '../../screens/terms-page';
import { mantinePage } from './mantine-page';

export const PublicPage = mantinePage(TermsPage);
