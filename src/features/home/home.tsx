import { HomePage } from '../../screens/home-page';

/** The home page, drawn without Mantine: its first load carries none (docs/performance.md). */
export const PublicPage = HomePage;
