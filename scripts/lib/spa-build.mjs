/**
 * Builds the SPA into dist/ when it is missing or older than its sources. Shared by `npm start` and the
 * end-to-end tests' global setup, so both always serve what the sources say.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['src', 'contract', 'machines', 'public', 'index.html', 'vite.config.ts', 'package-lock.json', 'scripts/lib/prerender.ts', 'scripts/lib/precompress.mjs'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function spaIsStale(root) {
  const built = join(root, 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const sources = Math.max(...SOURCES.map((source) => newestMtime(join(root, source))));
  return sources > statSync(built).mtimeMs;
}

export function buildSpa(root, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'inherit',
      // NODE_ENV must be production: under a test runner it is 'test', which makes Vite build a dev bundle.
      // A local build (npm start, tests, size) may keep the example.com placeholders a release refuses.
      env: { ALLOW_PLACEHOLDER_URLS: 'true', ...process.env, NODE_ENV: 'production', ...env },
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build exited with ${code}`))));
  });
}

export async function ensureSpaBuilt(root, log = console.log) {
  if (!spaIsStale(root)) return false;
  log('building the website…');
  await buildSpa(root);
  return true;
}
