import { SupportPage } from '../../screens/support-page';
import { mantinePage } from './mantine-page';

export const PublicPage = mantinePage(SupportPage);
