/**
 * The flags every test Chromium runs with (design §9), whether a test file launches it
 * (tests/support/browser.ts) or the e2e stack pool does (tests/support/stack-pool.ts).
 */
export const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
