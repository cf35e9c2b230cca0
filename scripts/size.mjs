#!/usr/bin/env node
/**
 * `npm run size`: what the home page costs a visitor. Builds the SPA when stale, then follows Vite's
 * manifest from index.html through every static import, plus the home route's own chunk (TanStack's
 * code splitting loads it before the page can render), and prints their gzip sizes, the total JavaScript
 * of the build, and whether any first-load chunk contains Firebase code. Exits 1 over budget.
 *
 * Usage: node scripts/size.mjs [--json] [--no-build] [--report]   (--report: print, never fail)
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ensureSpaBuilt } from './lib/spa-build.mjs';

export const HOME_BUDGET_KB = 120;
const FIREBASE_MARKERS = ['@firebase/', 'identitytoolkit.googleapis.com', 'FirebaseError'];

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

const gzipKb = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;

export function homePageChunks(manifest) {
  const seen = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(chunk.file)) return;
    seen.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit('index.html');
  const homeRoute = Object.keys(manifest).find((key) => key.startsWith('src/routes/index.tsx'));
  if (homeRoute) {
    visit(homeRoute);
    for (const key of Object.keys(manifest)) {
      // The split component chunk of the home route, e.g. "src/routes/index.tsx?tsr-split=component".
      if (key.startsWith('src/routes/index.tsx?')) visit(key);
    }
  }
  return [...seen].filter((file) => file.endsWith('.js'));
}

async function main() {
  const args = new Set(process.argv.slice(2));
  if (!args.has('--no-build')) await ensureSpaBuilt(root, (message) => console.error(`[size] ${message}`));
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  const homeFiles = homePageChunks(manifest);
  const home = homeFiles.map((file) => ({ file, gzipKb: gzipKb(file) }));
  const homeTotal = home.reduce((sum, chunk) => sum + chunk.gzipKb, 0);
  const allJs = readdirSync(join(dist, 'assets')).filter((file) => file.endsWith('.js'));
  const allTotal = allJs.reduce((sum, file) => sum + gzipKb(join('assets', file)), 0);
  const firebaseOnHome = homeFiles.filter((file) => {
    const text = readFileSync(join(dist, file), 'utf8');
    return FIREBASE_MARKERS.some((marker) => text.includes(marker));
  });

  const report = {
    homePageGzipKb: Number(homeTotal.toFixed(1)),
    homeBudgetKb: HOME_BUDGET_KB,
    allJavaScriptGzipKb: Number(allTotal.toFixed(1)),
    homeChunks: home.map((chunk) => ({ file: chunk.file, gzipKb: Number(chunk.gzipKb.toFixed(1)) })),
    firebaseOnHomePage: firebaseOnHome,
  };
  if (args.has('--json')) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    console.log('Home page, JavaScript loaded before it is interactive (gzip):');
    for (const chunk of report.homeChunks) console.log(`  ${chunk.gzipKb.toFixed(1).padStart(7)} KB  ${chunk.file}`);
    console.log(`  ${report.homePageGzipKb.toFixed(1).padStart(7)} KB  total (budget ${HOME_BUDGET_KB} KB)`);
    console.log(`All JavaScript in the build (gzip): ${report.allJavaScriptGzipKb.toFixed(1)} KB in ${allJs.length} files`);
    console.log(`Firebase code on the home page: ${firebaseOnHome.length ? firebaseOnHome.join(', ') : 'none'}`);
  }
  const overBudget = homeTotal > HOME_BUDGET_KB;
  if (overBudget && !args.has("--json")) console.log(`OVER BUDGET by ${(homeTotal - HOME_BUDGET_KB).toFixed(1)} KB`);
  if ((overBudget || firebaseOnHome.length) && !args.has('--report')) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
