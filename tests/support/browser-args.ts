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
  // One renderer process per page, not one more for each frame of another site in it: the Auth emulator's
  // iframe (localhost) in every page of the site (127.0.0.1) cost a process of its own, ~100 a run (issue 50).
  // Site isolation protects a person's browser from hostile sites; these tests visit only our own pages.
  '--disable-site-isolation-trials',
];
