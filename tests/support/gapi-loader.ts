/**
 * Google's api.js loader, which Firebase's popup sign-in fetches even against the Auth emulator, answered
 * with the offline stand-in beside this file (gapi-loader-stub.js): for the e2e tests' browser contexts and
 * the speed bench's signed-in profiles. No Vitest here, so a script can import it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Route } from 'playwright-core';

export const GAPI_LOADER = /^https:\/\/apis\.google\.com\/js\/api\.js/;

const stub = readFileSync(join(import.meta.dirname, 'gapi-loader-stub.js'), 'utf8');

/** Answers a request for the loader with the stand-in. */
export function answerGapiLoader(route: Route): Promise<void> {
  return route.fulfill({ status: 200, contentType: 'text/javascript', body: stub });
}
