export const NODE_LINE_PROJECTS: string[];
export const BROWSER_SIDE_PROJECTS: string[];
