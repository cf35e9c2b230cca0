/**
 * Whether the visitor's connection asks for no download the page does not need yet (issue 45 item 9): the
 * browser's Save-Data setting, or a 2G (or slower) connection. Chromium reports both through
 * `navigator.connection`; where it is missing (Safari, Firefox) nothing is known and nothing is held back.
 */
interface NetworkInformation {
  saveData?: boolean;
  effectiveType?: string;
}

export function connectionSavesData(): boolean {
  const connection = (globalThis.navigator as { connection?: NetworkInformation } | undefined)?.connection;
  return connection?.saveData === true || /(^|-)2g$/.test(connection?.effectiveType ?? '');
}
