import { existsSync } from 'node:fs';
import { ensureSpaBuilt } from '../../scripts/lib/spa-build.mjs';
import { CHROMIUM_PATH } from '../support/browser';

/** The end-to-end suite runs against the production build, rebuilt only when its sources changed. */
export async function setup() {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it with 'apt-get install -y chromium'.`);
  }
  await ensureSpaBuilt(process.cwd(), (message: string) => console.log(`[e2e] ${message}`));
}
