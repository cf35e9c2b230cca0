import { PrivacyPage } from '../../screens/privacy-page';
import { mantinePage } from '../../app/frame/mantine-page';

export const PublicPage = mantinePage(PrivacyPage);
