/**
 * The build's last steps (vite.config.ts, after the browser build): render every public page to static
 * HTML with React's server renderer (src/prerender.tsx, built for Node here), each with its own title and
 * description, into dist/pages/ with dist/pages/routes.json for the server (server/http/spa.ts); then
 * write brotli and gzip siblings of every file in dist/ (scripts/lib/precompress.mjs).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { precompressDirectory } from './precompress.mjs';
import { filesLoadedWith, publicPageFiles, routeEntries } from '../size.mjs';

interface PageMeta {
  title: string;
  description: string;
}
interface RenderedPage {
  route: string;
  html: string;
  meta: PageMeta;
  shell?: boolean;
  entry?: 'public';
}
interface PrerenderModule {
  renderPages: () => Promise<{ pages: RenderedPage[]; notFound: RenderedPage }>;
  BROWSER_ONLY_ROUTES: readonly string[];
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The built index.html with a page's markup, title and description written in. */
function pageHtml(template: string, page: RenderedPage, headTags: string): string {
  // A shell (src/prerender.tsx SHELL_ROUTES) says so: src/main.tsx renders over it instead of hydrating it.
  // A public page says which entry hydrates it (src/boot.ts: src/main-public.tsx, without the router) and
  // which page it is (src/app/pages/public-pages.ts).
  const root = page.shell
    ? '<div id="root" data-shell>'
    : page.entry
      ? `<div id="root" data-entry="${page.entry}" data-page="${escapeHtml(page.route)}">`
      : '<div id="root">';
  const withRoot = template.replace('<div id="root"></div>', () => `${root}${page.html}</div>`);
  if (withRoot === template) throw new Error('prerender: no <div id="root"></div> in dist/index.html');
  return withRoot
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(page.meta.title)}</title>`)
    .replace(/<meta name="description" content="[^"]*"\s*\/?>/, () => `<meta name="description" content="${escapeHtml(page.meta.description)}" />`)
    .replace('  </head>', () => `${headTags}  </head>`);
}

/** The route files each page the router renders loads first (src/routes/; _mantine.tsx is a layout). */
const ROUTE_FILES: Record<string, string[]> = {
  '404': [],
};
const routeFilesOf = (route: string) =>
  ROUTE_FILES[route] ?? ['src/routes/_mantine.tsx', `src/routes/_mantine${route}.tsx`];

/**
 * The stylesheets and scripts of the page, for its <head>: the prerendered markup is drawn with its styles
 * from the first paint (no shift when the page's code arrives), and the page's code downloads beside the
 * entry's instead of after it. A public page loads the public entry and its own module, no route.
 */
function routeAssets(manifest: Parameters<typeof routeEntries>[0], page: RenderedPage, template: string) {
  const { js, css } =
    page.entry === 'public' ? publicPageFiles(manifest, page.route) : filesLoadedWith(manifest, routeEntries(manifest, routeFilesOf(page.route)));
  const missing = (file: string) => !template.includes(`/${file}"`);
  return { css: css.filter(missing), js: js.filter(missing) };
}

/** Anything that would end a <style> element early (a stylesheet holds none today: this keeps it so). */
const safeInStyle = (css: string, file: string) => {
  if (/<\/style/i.test(css)) throw new Error(`prerender: ${file} contains "</style"`);
  return css;
};

/**
 * Every stylesheet of the page written into it (issue 12): a phone on a slow network paints the page with
 * the HTML alone, without a round trip per stylesheet first. The app's own stylesheet links (from
 * index.html) become <style> elements in place, so the cascade keeps its order; the route's follow them.
 *
 * Each inlined file keeps a link whose type is no styling language, so the browser never fetches it (HTML
 * standard, "link type stylesheet"; `disabled` links are fetched by Chromium's preload scanner): when the
 * route's code arrives, Vite's preload helper (which loads a chunk's stylesheets before its code) finds the
 * stylesheet already in the page and neither downloads it again nor holds the route's code until it has.
 */
function inlineStylesheets(html: string, dist: string, routeCss: string[]): string {
  const styleOf = (file: string) =>
    `<style data-href="/${file}">${safeInStyle(readFileSync(join(dist, file), 'utf8').trim(), file)}</style>\n    ` +
    `<link rel="stylesheet" crossorigin href="/${file}" type="text/x-inlined">`;
  const withAppStyles = html.replace(/<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g, (_tag, file: string) => styleOf(file));
  return withAppStyles.replace('  </head>', () => `${routeCss.map((file) => `    ${styleOf(file)}\n`).join('')}  </head>`);
}

const fileNameOf = (route: string) => (route === '/' ? 'home.html' : `${route.replace(/^\//, '').replace(/\//g, '-')}.html`);

export async function prerenderAndCompress(root: string, dist: string): Promise<void> {
  const ssrOut = join(root, 'node_modules', '.cache', 'veil-prerender');
  await build({
    root,
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'warn',
    build: { ssr: 'src/prerender.tsx', outDir: ssrOut, emptyOutDir: true, manifest: false, copyPublicDir: false },
  });
  const module = (await import(pathToFileURL(join(ssrOut, 'prerender.js')).href)) as PrerenderModule;
  const { pages, notFound } = await module.renderPages();

  const template = readFileSync(join(dist, 'index.html'), 'utf8');
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  const pagesDir = join(dist, 'pages');
  rmSync(pagesDir, { recursive: true, force: true });
  mkdirSync(pagesDir, { recursive: true });
  const routes = { pages: {} as Record<string, string>, notFound: '404.html', browserOnly: [...module.BROWSER_ONLY_ROUTES] };
  const write = (file: string, page: RenderedPage) => {
    const { css, js } = routeAssets(manifest, page, template);
    // A page's scripts are fetched once it has painted (src/boot.ts): before, they would share the network
    // with it. A shell's are fetched with it: its first paint is only the frame and "Loading", the page the
    // customer came for needs them all, and adding ~50 preload links from a script after the paint held a
    // phone's main thread for ~120 ms (issue 32 item 4); the HTML's own links cost it next to nothing.
    const link = page.shell ? (script: string) => `<link rel="modulepreload" crossorigin href="/${script}">` : (script: string) => `<link rel="modulepreload-after-paint" href="/${script}">`;
    const preloads = js.map((script) => `    ${link(script)}\n`).join('');
    writeFileSync(join(pagesDir, file), inlineStylesheets(pageHtml(template, page, preloads), dist, css));
  };
  for (const page of pages) {
    const file = fileNameOf(page.route);
    write(file, page);
    routes.pages[page.route] = file;
  }
  write(routes.notFound, notFound);
  writeFileSync(join(pagesDir, 'routes.json'), `${JSON.stringify(routes, null, 2)}\n`);
  await precompressDirectory(dist);
}
