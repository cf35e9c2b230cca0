/**
 * Which Chromium the end-to-end tests drive, so that `npm install` is all a test run needs:
 *  1. `CHROMIUM_PATH`, when set (it must exist: a typo should not silently fall back);
 *  2. a Chromium or Chrome installed on the system, at the usual Linux and macOS paths;
 *  3. the build shipped inside the npm package `@sparticuz/chromium` (Linux x64 only), unpacked on first use.
 * The resolution itself is pure (`chooseChromium`), so tests/unit/chromium-path.test.ts can cover the order
 * with fake paths.
 */
import { existsSync } from 'node:fs';

export const SYSTEM_CHROMIUM_PATHS: Readonly<Record<string, readonly string[]>> = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome-stable',
    '/usr/bin/google-chrome',
    '/snap/bin/chromium',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
};

export type ChromiumChoice =
  | { kind: 'path'; path: string; source: 'CHROMIUM_PATH' | 'system' }
  | { kind: 'npm-build' }
  | { kind: 'none'; message: string };

export interface ChromiumHost {
  env: Record<string, string | undefined>;
  platform: string;
  arch: string;
  exists: (path: string) => boolean;
}

export function chooseChromium({ env, platform, arch, exists }: ChromiumHost): ChromiumChoice {
  const configured = env.CHROMIUM_PATH;
  if (configured) {
    return exists(configured)
      ? { kind: 'path', path: configured, source: 'CHROMIUM_PATH' }
      : { kind: 'none', message: `CHROMIUM_PATH is set to ${configured}, but there is no file there.` };
  }
  const installed = (SYSTEM_CHROMIUM_PATHS[platform] ?? []).find(exists);
  if (installed) return { kind: 'path', path: installed, source: 'system' };
  if (platform === 'linux' && arch === 'x64') return { kind: 'npm-build' };
  return {
    kind: 'none',
    message:
      `No Chromium for the end-to-end tests on ${platform}/${arch}: install Chromium or Google Chrome, ` +
      'or set CHROMIUM_PATH to a Chromium-based browser (the npm-shipped build covers Linux x64 only).',
  };
}

/** Resolves the browser for this machine; unpacks the npm-shipped build into the temp folder when chosen. */
export async function resolveChromiumPath(): Promise<string> {
  const choice = chooseChromium({ env: process.env, platform: process.platform, arch: process.arch, exists: existsSync });
  switch (choice.kind) {
    case 'path':
      return choice.path;
    case 'none':
      throw new Error(choice.message);
    case 'npm-build': {
      // Only its executablePath(): the package's serverless launch arguments are not ours (tests/support/browser.ts).
      const { default: chromium } = await import('@sparticuz/chromium');
      return chromium.executablePath();
    }
  }
}
