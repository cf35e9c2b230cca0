/**
 * Issue 34 (Build 4): npm 12 runs no dependency's install script unless package.json's allowScripts allows
 * it, and npm 11 warns about each one not decided. Every package of the lockfile that has an install
 * script is decided here, each with its reason (docs/decisions.md, "Install scripts").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean; optional?: boolean }>;
};

/** The names of the lockfile's packages that have an install script (preinstall, install, postinstall or a node-gyp build). */
const withInstallScripts = [
  ...new Set(
    Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
  ),
].sort();

describe('allowScripts', () => {
  test('decides every install script in the lockfile, and nothing else', () => {
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual(withInstallScripts);
  });

  test('allows only the scripts the project needs', () => {
    // esbuild (under tsx, which runs the API) checks and places its platform binary; the others are not
    // needed: @firebase/util writes a build-time web config we never use, protobufjs only prints a version
    // notice, and re2 is an optional native speed-up of the Firebase CLI's hosting emulator (not run here).
    expect(pkg.allowScripts).toEqual({ esbuild: true, '@firebase/util': false, protobufjs: false, re2: false });
  });
});
