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
}

export function homePageFiles(manifest: Record<string, { file: string; imports?: string[]; css?: string[] }>): {
  js: string[];
  css: string[];
};
export function measureHomePage(dist?: string): HomePageReport;
