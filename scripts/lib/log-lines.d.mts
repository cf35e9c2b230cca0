/** One output line of the API to the line to print, or null to print nothing. */
export function createLogFormatter(): (line: string) => string | null;
