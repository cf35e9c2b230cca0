import { describe, expect, it } from 'vitest';
import { chooseChromium, SYSTEM_CHROMIUM_PATHS } from '../support/chromium-path';

const linux = { platform: 'linux', arch: 'x64' };
const only = (...paths: string[]) => (path: string) => paths.includes(path);

describe('the e2e browser is resolved in a fixed order', () => {
  it('takes CHROMIUM_PATH first, even when a system browser exists', () => {
    const choice = chooseChromium({ ...linux, env: { CHROMIUM_PATH: '/opt/my/chrome' }, exists: only('/opt/my/chrome', '/usr/bin/chromium') });
    expect(choice).toEqual({ kind: 'path', path: '/opt/my/chrome', source: 'CHROMIUM_PATH' });
  });

  it('refuses a CHROMIUM_PATH that does not exist instead of silently using another browser', () => {
    const choice = chooseChromium({ ...linux, env: { CHROMIUM_PATH: '/typo/chromium' }, exists: only('/usr/bin/chromium') });
    expect(choice).toEqual({ kind: 'none', message: expect.stringContaining('CHROMIUM_PATH is set to /typo/chromium') });
  });

  it('then a system Chromium or Chrome, in the listed order', () => {
    expect(chooseChromium({ ...linux, env: {}, exists: only('/usr/bin/google-chrome', '/snap/bin/chromium') })).toEqual({
      kind: 'path',
      path: '/usr/bin/google-chrome',
      source: 'system',
    });
    expect(chooseChromium({ ...linux, env: {}, exists: only(...SYSTEM_CHROMIUM_PATHS.linux!) })).toMatchObject({ path: '/usr/bin/chromium' });
  });

  it('finds Chrome in /Applications on macOS', () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(chooseChromium({ platform: 'darwin', arch: 'arm64', env: {}, exists: only(chrome) })).toMatchObject({ path: chrome });
  });

  it('falls back to the npm-shipped build on Linux x64 with no browser installed', () => {
    expect(chooseChromium({ ...linux, env: {}, exists: only() })).toEqual({ kind: 'npm-build' });
  });

  it('says what to install where no build fits', () => {
    const choice = chooseChromium({ platform: 'darwin', arch: 'arm64', env: {}, exists: only() });
    expect(choice).toMatchObject({ kind: 'none', message: expect.stringMatching(/install Chromium or Google Chrome, or set CHROMIUM_PATH/) });
    expect(chooseChromium({ platform: 'linux', arch: 'arm64', env: {}, exists: only() })).toMatchObject({ kind: 'none' });
  });
});
