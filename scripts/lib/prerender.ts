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
import { filesLoadedWith, routeEntries } from '../size.mjs';

interface PageMeta {
  title: string;
  description: string;
}
interface RenderedPage {
  route: string;
  html: string;
  meta: PageMeta;
}
interface PrerenderModule {
  renderPages: () => Promise<{ pages: RenderedPage[]; notFound: RenderedPage }>;
  BROWSER_ONLY_ROUTES: readonly string[];
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The built index.html with a page's markup, title and description written in. */
function pageHtml(template: string, page: RenderedPage, headTags = ''): string {
  const withRoot = template.replace('<div id="root"></div>', () => `<div id="root">${page.html}</div>`);
  if (withRoot === template) throw new Error('prerender: no <div id="root"></div> in dist/index.html');
  return withRoot
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(page.meta.title)}</title>`)
    .replace(/<meta name="description" content="[^"]*"\s*\/?>/, () => `<meta name="description" content="${escapeHtml(page.meta.description)}" />`)
    .replace('  </head>', () => `${headTags}  </head>`);
}

/** The route files each prerendered page loads before it renders (src/routes/; _mantine.tsx is a layout). */
const ROUTE_FILES: Record<string, string[]> = {
  '/': ['src/routes/index.tsx'],
  '404': [],
};
const routeFilesOf = (route: string) =>
  ROUTE_FILES[route] ?? ['src/routes/_mantine.tsx', `src/routes/_mantine${route}.tsx`];

/**
 * The stylesheets and scripts of the page's route, linked from its <head>: the prerendered markup is drawn
 * with its route's styles from the first paint (no shift when the route's code arrives), and the route's
 * code downloads beside the app's instead of after it.
 */
function routeAssetTags(manifest: Parameters<typeof routeEntries>[0], route: string, template: string): string {
  const { js, css } = filesLoadedWith(manifest, routeEntries(manifest, routeFilesOf(route)));
  const missing = (file: string) => !template.includes(`/${file}"`);
  return [
    ...css.filter(missing).map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
    ...js.filter(missing).map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
  ]
    .map((tag) => `    ${tag}\n`)
    .join('');
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
  for (const page of pages) {
    const file = fileNameOf(page.route);
    writeFileSync(join(pagesDir, file), pageHtml(template, page, routeAssetTags(manifest, page.route, template)));
    routes.pages[page.route] = file;
  }
  writeFileSync(join(pagesDir, routes.notFound), pageHtml(template, notFound, routeAssetTags(manifest, '404', template)));
  writeFileSync(join(pagesDir, 'routes.json'), `${JSON.stringify(routes, null, 2)}\n`);
  await precompressDirectory(dist);
}
