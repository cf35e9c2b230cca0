export const HOME_BUDGET_KB: number;

export interface HomePageReport {
  homePageGzipKb: number;
  homeBudgetKb: number;
  overBudget: boolean;
  homeChunks: { file: string; gzipKb: number }[];
  homeCssGzipKb: number;
  allJavaScriptGzipKb: number;
  allJavaScriptFiles: number;
  firebaseOnHomePage: string[];
  mantineOnHomePage: string[];
  xstateOnHomePage: string[];
  routerOnHomePage: string[];
}

type Manifest = Record<string, { file: string; imports?: string[]; css?: string[] }>;

export function filesLoadedWith(manifest: Manifest, keys: string[]): { js: string[]; css: string[] };
export const PUBLIC_ENTRY: string;
export function routeEntries(manifest: Manifest, routeFiles: string[], appEntry?: string): string[];
export function publicPageModule(route: string): string;
export function publicPageFiles(manifest: Manifest, route: string): { js: string[]; css: string[] };
export function homePageFiles(manifest: Manifest): { js: string[]; css: string[] };
export function measureHomePage(dist?: string): HomePageReport;
