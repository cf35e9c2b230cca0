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

export const STATUS_BUDGET_KB: number;
export const STATUS_REFRESHES_MODULE: string;

/** Files of a chunk list carrying each library's code, by library. */
type LibraryFiles = { XState: string[]; zod: string[]; ky: string[] };

export interface StatusPageReport {
  firstFiguresGzipKb: number;
  statusBudgetKb: number;
  overBudget: boolean;
  firstFiguresChunks: { file: string; gzipKb: number }[];
  refreshesGzipKb: number;
  refreshesChunks: { file: string; gzipKb: number }[];
  librariesBeforeFirstFigures: LibraryFiles;
  librariesInRefreshes: LibraryFiles;
}

export function measureStatusPage(dist?: string): StatusPageReport;
