#!/usr/bin/env node
/**
 * `npm run size`: what the home page costs a visitor. Builds the SPA when stale, then follows Vite's
 * manifest from index.html through every static import, and from the public pages' entry (src/main-public.tsx,
 * which src/boot.ts imports after the first paint) and the home page's module, and prints the gzip size of that JavaScript and of the
 * stylesheets the page waits for, the total JavaScript of the build, and whether any first-load chunk
 * contains Firebase, Mantine, XState or TanStack Router code (the session machine loads once the page is
 * interactive: src/app/actors/session-handle.ts; the home page hydrates without the router). Then the same for
 * /status before its first figures (issue 48 item 2): its first load against its budget, with no XState, zod
 * or ky (the figures come from a plain fetch; the server-status machine loads at idle for the refreshes, and
 * what it adds is printed apart). Exits 1 over a budget or with any of those on a first load.
 *
 * Usage: node scripts/size.mjs [--json] [--no-build] [--report]   (--report: print, never fail)
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ensureSpaBuilt } from './lib/spa-build.mjs';

// Issue 25 asked for at most 100 KB. Without the router the home page loads about 78 KB (docs/performance.md);
// the budget keeps a little room above that, not the 24 KB the router would take back.
export const HOME_BUDGET_KB = 80;

/** Text that only the named library's code contains (Mantine sets displayName "@mantine/core/Button", …). */
const LIBRARY_MARKERS = {
  Firebase: ['@firebase/', 'identitytoolkit.googleapis.com', 'FirebaseError'],
  Mantine: ['@mantine/core/', '@mantine/notifications/'],
  // XState's own event types; no machine of ours names them.
  XState: ['xstate.init', 'xstate.stop'],
  // TanStack Router's own names for its global and its scroll restoration key; the home page hydrates without it.
  Router: ['__TSR_ROUTER__', 'tsr-scroll'],
};

/**
 * /status's first load, which is all its first figures need: about 100 KB on 2026-11-29, most of it React and
 * Mantine as on /support (106.5 KB); the budget keeps the room of a small change, not of the refreshes' chunk.
 */
export const STATUS_BUDGET_KB = 102;
/** The module /status loads at idle once its first figures are drawn: the server-status machine, XState. */
export const STATUS_REFRESHES_MODULE = 'src/features/status/status-wiring.tsx';
/** What /status's first figures must not wait for: the refreshes' machine and the API client. */
const STATUS_MARKERS = {
  XState: LIBRARY_MARKERS.XState,
  // zod's own error class name, which survives minification (tests/unit/build-output.test.ts reads it too).
  zod: ['$ZodError'],
  // ky's time-out message and its option name (the API client's `ky.create({ prefixUrl })`).
  ky: ['Request timed out', 'prefixUrl'],
};

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The files that load with the manifest entries `keys`: their chunks, every static import, their CSS. */
export function filesLoadedWith(manifest, keys) {
  const seen = new Set();
  const css = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(chunk.file)) return;
    seen.add(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return { js: [...seen].filter((file) => file.endsWith('.js')), css: [...css] };
}

/**
 * The manifest entries a route loads before it renders: the page's entry (src/boot.ts), what it imports
 * after the first paint (React DOM, then the app, src/main.tsx: dynamic imports, issue 25), each file route
 * on its path (its layout routes too) and their split chunks, e.g. "src/routes/index.tsx?tsr-split=component".
 */
const APP_ENTRY = 'src/main.tsx';
/** The public pages' entry in place of the app's: they hydrate without the router (issues 25 and 32). */
export const PUBLIC_ENTRY = 'src/main-public.tsx';
export function routeEntries(manifest, routeFiles, appEntry = APP_ENTRY) {
  const keys = Object.keys(manifest).filter((key) => routeFiles.some((file) => key === file || key.startsWith(`${file}?`)));
  // What src/boot.ts imports after the first paint: React DOM, then one of the two entries.
  const startedByEntry = (manifest['index.html']?.dynamicImports ?? []).filter((key) => key !== APP_ENTRY && key !== PUBLIC_ENTRY);
  return ['index.html', ...new Set([...startedByEntry, appEntry]), ...keys];
}

/** A public page's own module, which the public entry loads before hydrating (src/app/pages/public-pages.ts). */
export const publicPageModule = (route) => {
  const name = route === '/' ? 'home' : route.replace(/^\//, '');
  return `src/features/${name}/${name}.tsx`;
};

/** The files a public page loads before it can render: JavaScript and the stylesheets those chunks carry. */
export function publicPageFiles(manifest, route) {
  const module = publicPageModule(route);
  if (!manifest[module]) throw new Error(`size: no ${module} in the build's manifest`);
  return filesLoadedWith(manifest, routeEntries(manifest, [module], PUBLIC_ENTRY));
}

/** The files the home page loads before it can render. */
export function homePageFiles(manifest) {
  return publicPageFiles(manifest, '/');
}

const gzipKbIn = (dist) => (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;
const round = (kb) => Number(kb.toFixed(1));
const readManifest = (dist) => JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

/** For each library of `markers`, the files of `files` that carry its code. */
function librariesIn(dist, files, markers) {
  return Object.fromEntries(
    Object.entries(markers).map(([library, texts]) => [
      library,
      files.filter((file) => {
        const text = readFileSync(join(dist, file), 'utf8');
        return texts.some((marker) => text.includes(marker));
      }),
    ]),
  );
}

/** Measures a build in `dist`: the home page's first load against its budget, and the whole build. */
export function measureHomePage(dist = join(root, 'dist')) {
  const gzipKb = gzipKbIn(dist);
  const manifest = readManifest(dist);
  const files = homePageFiles(manifest);
  const chunks = files.js.map((file) => ({ file, gzipKb: gzipKb(file) }));
  const homeTotal = chunks.reduce((sum, chunk) => sum + chunk.gzipKb, 0);
  const cssTotal = files.css.reduce((sum, file) => sum + gzipKb(file), 0);
  const allJs = readdirSync(join(dist, 'assets')).filter((file) => file.endsWith('.js'));
  const allTotal = allJs.reduce((sum, file) => sum + gzipKb(join('assets', file)), 0);
  const librariesOnHome = librariesIn(dist, files.js, LIBRARY_MARKERS);
  return {
    homePageGzipKb: round(homeTotal),
    homeBudgetKb: HOME_BUDGET_KB,
    // Judged at the precision it is printed and tested at (tests/unit/build-output.test.ts): 0.1 KB.
    overBudget: round(homeTotal) > HOME_BUDGET_KB,
    homeChunks: chunks.map((chunk) => ({ file: chunk.file, gzipKb: round(chunk.gzipKb) })),
    homeCssGzipKb: round(cssTotal),
    allJavaScriptGzipKb: round(allTotal),
    allJavaScriptFiles: allJs.length,
    firebaseOnHomePage: librariesOnHome.Firebase,
    mantineOnHomePage: librariesOnHome.Mantine,
    xstateOnHomePage: librariesOnHome.XState,
    routerOnHomePage: librariesOnHome.Router,
  };
}

/**
 * Measures /status in a build in `dist`: the JavaScript it loads before its first figures (its first load:
 * src/features/status/status-first-figures.ts fetches them with a plain fetch) against STATUS_BUDGET_KB, the
 * libraries of STATUS_MARKERS found in it, and what the refreshes' chunk adds at idle.
 */
export function measureStatusPage(dist = join(root, 'dist')) {
  const gzipKb = gzipKbIn(dist);
  const manifest = readManifest(dist);
  if (!manifest[STATUS_REFRESHES_MODULE]) throw new Error(`size: no ${STATUS_REFRESHES_MODULE} in the build's manifest`);
  const first = publicPageFiles(manifest, '/status').js;
  const refreshes = filesLoadedWith(manifest, [STATUS_REFRESHES_MODULE]).js.filter((file) => !first.includes(file));
  // Each file compressed once: its size is both listed and summed.
  const sized = (files) => files.map((file) => ({ file, gzipKb: gzipKb(file) }));
  const total = (chunks) => chunks.reduce((sum, chunk) => sum + chunk.gzipKb, 0);
  const listed = (chunks) => chunks.map((chunk) => ({ file: chunk.file, gzipKb: round(chunk.gzipKb) }));
  const [firstChunks, refreshChunks] = [sized(first), sized(refreshes)];
  const firstTotal = total(firstChunks);
  return {
    firstFiguresGzipKb: round(firstTotal),
    statusBudgetKb: STATUS_BUDGET_KB,
    overBudget: round(firstTotal) > STATUS_BUDGET_KB,
    firstFiguresChunks: listed(firstChunks),
    refreshesGzipKb: round(total(refreshChunks)),
    refreshesChunks: listed(refreshChunks),
    librariesBeforeFirstFigures: librariesIn(dist, first, STATUS_MARKERS),
    librariesInRefreshes: librariesIn(dist, refreshes, STATUS_MARKERS),
  };
}

async function main() {
  const args = new Set(process.argv.slice(2));
  if (!args.has('--no-build')) await ensureSpaBuilt(root, (message) => console.error(`[size] ${message}`));
  const report = measureHomePage();
  const status = measureStatusPage();
  if (args.has('--json')) {
    console.log(JSON.stringify({ ...report, statusPage: status }, null, 2));
  } else {
    const none = (files) => (files.length ? files.join(', ') : 'none');
    console.log('Home page, JavaScript loaded before it is interactive (gzip):');
    for (const chunk of report.homeChunks) console.log(`  ${chunk.gzipKb.toFixed(1).padStart(7)} KB  ${chunk.file}`);
    console.log(`  ${report.homePageGzipKb.toFixed(1).padStart(7)} KB  total (budget ${HOME_BUDGET_KB} KB)`);
    console.log(`Home page, stylesheets it waits for (gzip): ${report.homeCssGzipKb.toFixed(1)} KB`);
    console.log(`All JavaScript in the build (gzip): ${report.allJavaScriptGzipKb.toFixed(1)} KB in ${report.allJavaScriptFiles} files`);
    console.log(`Firebase code on the home page: ${none(report.firebaseOnHomePage)}`);
    console.log(`Mantine code on the home page: ${none(report.mantineOnHomePage)}`);
    console.log(`XState code on the home page: ${none(report.xstateOnHomePage)}`);
    console.log(`TanStack Router code on the home page: ${none(report.routerOnHomePage)}`);
    if (report.overBudget) console.log(`OVER BUDGET by ${(report.homePageGzipKb - HOME_BUDGET_KB).toFixed(1)} KB`);
    console.log(`/status, JavaScript loaded before its first figures (gzip): ${status.firstFiguresGzipKb.toFixed(1)} KB in ${status.firstFiguresChunks.length} files (budget ${STATUS_BUDGET_KB} KB)`);
    for (const [library, files] of Object.entries(status.librariesBeforeFirstFigures)) console.log(`  ${library} code before them: ${none(files)}`);
    console.log(`/status, loaded at idle for the refreshes (gzip): ${status.refreshesGzipKb.toFixed(1)} KB`);
    for (const chunk of status.refreshesChunks) console.log(`  ${chunk.gzipKb.toFixed(1).padStart(7)} KB  ${chunk.file}`);
    if (status.overBudget) console.log(`/status OVER BUDGET by ${(status.firstFiguresGzipKb - STATUS_BUDGET_KB).toFixed(1)} KB`);
  }
  const librariesOnFirstLoad = [report.firebaseOnHomePage, report.mantineOnHomePage, report.xstateOnHomePage, report.routerOnHomePage].flat();
  const librariesBeforeStatusFigures = Object.values(status.librariesBeforeFirstFigures).flat();
  const failed = report.overBudget || status.overBudget || librariesOnFirstLoad.length > 0 || librariesBeforeStatusFigures.length > 0;
  if (failed && !args.has('--report')) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
