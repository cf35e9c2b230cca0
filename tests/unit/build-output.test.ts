/**
 * What the production build must and must not contain: the inspector is development-only, and the home
 * page's first load stays within its budget with no Firebase, Mantine or XState code (scripts/size.mjs), as
 * /status's first figures do with no XState, zod or ky, and a prerendered page paints from its HTML alone
 * (scripts/lib/prerender.ts, src/boot.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';
import { ensureSpaBuilt } from '../../scripts/lib/spa-build.mjs';
import {
  HOME_BUDGET_KB,
  PUBLIC_ENTRY,
  STATUS_BUDGET_KB,
  STATUS_REFRESHES_MODULE,
  filesLoadedWith,
  homePageFiles,
  measureHomePage,
  measureStatusPage,
  publicPageFiles,
  routeEntries,
} from '../../scripts/size.mjs';

const root = process.cwd();
const dist = join(root, 'dist');
const assets = join(dist, 'assets');
const read = (file: string) => readFileSync(join(dist, file), 'utf8');
const assetsEndingWith = (extension: string) =>
  readdirSync(assets).filter((name) => name.endsWith(extension)).map((name) => `assets/${name}`);
const allJs = () => assetsEndingWith('.js');
const manifest = () => JSON.parse(read('.vite/manifest.json'));
const homePage = () => homePageFiles(manifest());

/** The public pages: prerendered from their own tree and hydrated without the router (issues 25 and 32). */
const PUBLIC_PAGES = ['/', '/support', '/download', '/privacy', '/terms', '/signin', '/success', '/cancel', '/status'];
/** The pages the router renders and the route files each loads before rendering (_mantine.tsx is a layout). */
const ROUTED_PAGES: Record<string, string[]> = Object.fromEntries(
  ['subscribe', 'account'].map((page) => [`/${page}`, ['src/routes/_mantine.tsx', `src/routes/_mantine/${page}.tsx`]]),
);
/** What each page loads before it renders: a public page the public entry and its own module, no route. */
const firstLoads = (built: ReturnType<typeof manifest>): Record<string, { js: string[]; css: string[] }> => ({
  ...Object.fromEntries(PUBLIC_PAGES.map((page) => [page, publicPageFiles(built, page)])),
  ...Object.fromEntries(Object.entries(ROUTED_PAGES).map(([page, routeFiles]) => [page, filesLoadedWith(built, routeEntries(built, routeFiles))])),
});
const routerIn = (file: string) => read(file).includes('__TSR_ROUTER__');
const pageFile = (page: string) => `pages/${page === '/' ? 'home' : page.slice(1)}.html`;

beforeAll(async () => {
  await ensureSpaBuilt(root, () => {});
}, 120_000);

describe('production build', () => {
  test('contains no trace of the Stately inspector', () => {
    for (const file of allJs()) {
      expect(read(file), file).not.toContain('createBrowserInspector');
      expect(read(file), file).not.toContain('stately.ai');
    }
  });

  test(`the home page's first load is within its ${HOME_BUDGET_KB} KB gzip budget`, () => {
    const report = measureHomePage(dist);
    expect(report.homeChunks.length).toBeGreaterThan(0);
    expect(report.homePageGzipKb).toBeLessThanOrEqual(HOME_BUDGET_KB);
  });

  test('no public page loads Firebase code before a sign-in needs it; it ships in lazy chunks', () => {
    const firebaseIn = (file: string) => read(file).includes('identitytoolkit');
    const built = manifest();
    for (const [page, routeFiles] of Object.entries(ROUTED_PAGES)) {
      expect(routeEntries(built, routeFiles).some((key) => key.startsWith(`${routeFiles.at(-1)}?`)), `${page}: its route chunk`).toBe(true);
    }
    for (const [page, { js }] of Object.entries(firstLoads(built))) expect(js.filter(firebaseIn), page).toEqual([]);
    expect(allJs().some(firebaseIn)).toBe(true);
  });

  test('the home page loads no Mantine code or component styles, which ship with the other pages', () => {
    // Every Mantine component names itself "@mantine/core/<Name>"; its styles use classes like .m_77c9d27d.
    const mantineIn = (file: string) => read(file).includes('@mantine/core/');
    const mantineStylesIn = (file: string) => /\.m_[0-9a-f]{6,8}\b/.test(read(file));
    const { js, css } = homePage();
    expect(js.filter(mantineIn)).toEqual([]);
    expect(css.length).toBeGreaterThan(0);
    expect(css.filter(mantineStylesIn)).toEqual([]);
    expect(allJs().some(mantineIn)).toBe(true);
    expect(assetsEndingWith('.css').some(mantineStylesIn)).toBe(true);
  });

  test('the home page loads no XState or session machine before it is interactive; the session loads after', () => {
    // src/app/actors/session-handle.ts: the header and guards read the session through a handle, and the actor
    // (XState, machines/session.ts, its services) is a dynamic import that src/main.tsx starts after hydrating.
    const xstateIn = (file: string) => read(file).includes('xstate.init');
    // The machine's transition on sign-out, a key of its `on` block (the app only sends the event).
    const sessionMachineIn = (file: string) => /["']session\.signOut["']:\{/.test(read(file));
    const built = manifest();
    const { js } = homePage();
    expect(js.filter(xstateIn)).toEqual([]);
    expect(js.filter(sessionMachineIn)).toEqual([]);
    const runtime = filesLoadedWith(built, ['src/app/flows/session-runtime.ts']).js;
    expect(runtime.some(xstateIn), 'the session runtime carries XState').toBe(true);
    expect(runtime.some(sessionMachineIn), 'and the session machine').toBe(true);
  });

  test(`/status draws its first figures without XState, zod or ky, within ${STATUS_BUDGET_KB} KB gzip; its machine loads apart, for the refreshes (issue 48 item 2)`, () => {
    // The page's first load is all its first figures wait for: src/features/status/status-first-figures.ts
    // fetches them with the browser's fetch and a hand-written check; the server-status machine is a dynamic import.
    const report = measureStatusPage(dist);
    expect(report.librariesBeforeFirstFigures).toEqual({ XState: [], zod: [], ky: [] });
    expect(report.firstFiguresGzipKb).toBeLessThanOrEqual(STATUS_BUDGET_KB);
    const built = manifest();
    expect(publicPageFiles(built, '/status').js).not.toContain(built[STATUS_REFRESHES_MODULE].file);
    // The refreshes bring XState and the machine, and still no API client: they fetch as the first figures do.
    expect(report.librariesInRefreshes.XState.length, 'XState arrives with the refreshes').toBeGreaterThan(0);
    expect(report.librariesInRefreshes.zod).toEqual([]);
    expect(report.librariesInRefreshes.ky).toEqual([]);
    // The machine's transition on a refresh, a key of its `on` block (the hook only sends the event).
    const machineIn = (file: string) => /["']status\.refresh["']:/.test(read(file));
    expect(report.refreshesChunks.map(({ file }) => file).some(machineIn), 'the server-status machine comes with them').toBe(true);
    expect(report.firstFiguresChunks.map(({ file }) => file).filter(machineIn), 'and not before').toEqual([]);
  });

  test('the staff console ships in its own chunk, which no public page nor the account page loads (issue 30, item 7)', () => {
    const consoleIn = (file: string) => read(file).includes('Staff console') || read(file).includes('staff/actions');
    const built = manifest();
    for (const [page, { js }] of Object.entries(firstLoads(built))) expect(js.filter(consoleIn), page).toEqual([]);
    expect(allJs().filter(consoleIn).length, 'the console ships in a lazy chunk').toBeGreaterThan(0);
  });

  test('no public page loads zod on its first load: the contract schemas travel with the lazily loaded API client', () => {
    // Issue 24 items 3 and 4: the client parses with the server's own schemas and is imported statically by
    // lazily loaded code only (sign-in, account page); /subscribe's checkout keeps its dynamic import.
    const zodIn = (file: string) => read(file).includes('$ZodError');
    const built = manifest();
    expect(homePage().js.filter(zodIn)).toEqual([]);
    for (const page of PUBLIC_PAGES) expect(firstLoads(built)[page]!.js.filter(zodIn), page).toEqual([]);
    expect(firstLoads(built)['/subscribe']!.js.filter(zodIn), '/subscribe').toEqual([]);
    expect(allJs().some(zodIn), 'zod ships in a lazy chunk').toBe(true);
  });

  test('every public page hydrates from the public entry without the router, which the account area loads (issues 25 and 32)', () => {
    // The router is about 25 KB gzip, a quarter of what the home page would load first.
    const built = manifest();
    for (const page of PUBLIC_PAGES) {
      const { js } = publicPageFiles(built, page);
      expect(js, page).toContain(built[PUBLIC_ENTRY].file);
      expect(js.filter(routerIn), `${page}: the router on its first load`).toEqual([]);
      const html = read(pageFile(page));
      expect(html, page).toContain(`<div id="root" data-entry="public" data-page="${page}">`);
      // What src/boot.ts preloads once the page has painted: the public entry and the page's module, no router.
      const preloaded = [...html.matchAll(/<link rel="modulepreload-after-paint" href="\/([^"]+)">/g)].map((match) => match[1]!);
      expect(preloaded, page).toContain(built[PUBLIC_ENTRY].file);
      expect(preloaded, page).not.toContain(built['src/main.tsx'].file);
      expect(preloaded.filter(routerIn), `${page}: the router preloaded`).toEqual([]);
    }
    for (const page of Object.keys(ROUTED_PAGES)) expect(firstLoads(built)[page]!.js.some(routerIn), `${page} loads it`).toBe(true);
    // Their links are plain anchors: the current page marked as the router marks it in the account area.
    expect(read('pages/home.html')).toMatch(/<a href="\/" class="[^"]*" aria-current="page" data-active="true">Home<\/a>/);
    expect(read('pages/support.html')).toMatch(/<a href="\/support" class="[^"]*" aria-current="page" data-active="true">Support<\/a>/);
  });

  test('no stylesheet relies on the light-dark() stand-in of the minifier, which draws nothing here', () => {
    // Lightning CSS rewrites light-dark() into var(--lightningcss-light, …) var(--lightningcss-dark, …),
    // variables it declares only beside a literal color-scheme; Mantine sets color-scheme through a
    // variable, so rules reading them would never apply. (Declaring them, as it does beside our one
    // literal color-scheme in first-paint.css, is harmless.)
    const css = assetsEndingWith('.css');
    expect(css.length).toBeGreaterThan(0);
    expect(css.filter((file) => read(file).includes('var(--lightningcss-'))).toEqual([]);
  });

  test('a prerendered page paints from its HTML alone: stylesheets inline, only the small entry script fetched before it paints (a shell: its route\'s scripts with it)', () => {
    const pages = readdirSync(join(dist, 'pages')).filter((name) => name.endsWith('.html'));
    expect(pages.length).toBeGreaterThanOrEqual(8);
    const gzipKb = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;
    for (const name of pages) {
      const html = read(`pages/${name}`);
      // Every stylesheet of the page is written into it, and no <link> makes the browser fetch one.
      const inlined = [...html.matchAll(/<style data-href="\/([^"]+\.css)">([\s\S]*?)<\/style>/g)];
      expect(inlined.length, name).toBeGreaterThan(0);
      for (const [, file, css] of inlined) expect(css, `${name}: ${file}`).toBe(read(file!).trim());
      const fetchedStylesheets = [...html.matchAll(/<link rel="stylesheet"[^>]*>/g)].filter(([tag]) => !tag.includes('type="text/x-inlined"'));
      expect(fetchedStylesheets, name).toEqual([]);
      const scripts = [...html.matchAll(/<script type="module" crossorigin src="\/([^"]+)"|<link rel="modulepreload" crossorigin href="\/([^"]+)"/g)].map(
        (match) => match[1] ?? match[2]!,
      );
      expect(scripts.length, name).toBeGreaterThan(0);
      if (html.includes('<div id="root" data-shell>')) {
        // A shell (/account) paints only the frame and "Loading"; the page the customer came for needs all of
        // its route's scripts, fetched with the HTML (issue 32 item 4), React's chunk among them.
        expect(html, name).not.toContain('modulepreload-after-paint');
        expect(scripts.some((file) => /^assets\/framework-[^/]+\.js$/.test(file)), name).toBe(true);
        continue;
      }
      // Before the first paint the browser fetches only the entry and what it imports (src/boot.ts): the
      // app (React, the router, the session machine) is preloaded once the page has painted.
      expect(scripts.reduce((sum, file) => sum + gzipKb(file), 0), name).toBeLessThan(3);
      // React's chunk, on every page (the router's, on every page but the home page).
      expect(html, name).toMatch(/<link rel="modulepreload-after-paint" href="\/assets\/framework-[^"]+\.js">/);
    }
  });
});
