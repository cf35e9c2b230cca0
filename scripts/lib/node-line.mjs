/**
 * CI's second Node line (`npm run test:node-line`, scripts/test.mjs): the projects whose behaviour can differ
 * by Node version, every one of vitest.config.ts but the browser's side (the components in jsdom and the e2e
 * files, which `npm start` end to end once stands for). tests/unit/server-isolation.test.ts holds the list
 * to the config, so a project split in two (unit and unit-isolated) cannot leave half of it out.
 */
export const NODE_LINE_PROJECTS = ['unit', 'unit-isolated', 'relay', 'server', 'server-isolated'];

/** What the browser's side is: left to the first Node line. */
export const BROWSER_SIDE_PROJECTS = ['components', 'components-isolated', 'e2e'];
