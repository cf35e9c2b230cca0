import { PrivacyPage } from '../../screens/privacy-page';
import { mantinePage } from './mantine-page';

export const PublicPage = mantinePage(PrivacyPage);
