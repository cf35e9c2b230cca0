export const HOME_BUDGET_KB: number;
export function homePageChunks(manifest: Record<string, { file: string; imports?: string[] }>): string[];
