import { SupportPage } from '../../screens/support-page';
import { mantinePage } from '../../app/frame/mantine-page';

export const PublicPage = mantinePage(SupportPage);
