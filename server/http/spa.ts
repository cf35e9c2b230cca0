/**
 * Serves the built SPA from the API's origin (design §7: production is one origin): hashed assets with a
 * year's cache, and the pages, with the runtime client configuration written in, for every other path.
 *
 * Public pages are prerendered by the build (dist/pages/, listed in dist/pages/routes.json) and sent for
 * their own route; the pages that depend on the session (/account, /subscribe) get the empty shell
 * (index.html) and render in the browser; any other path gets the prerendered 404 page, with HTTP 404. Static files go out
 * as the build's brotli/gzip siblings, pages compressed here, once per encoding, when first asked for (issue 12).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { injectClientConfig } from '../../contract/client-config.ts';
import type { Config } from '../config.ts';
import { precompress, sendPrecompressed, type PrecompressedBody } from './compression.ts';
import { noSuchCall } from './framework-errors.ts';

/** What the build's prerender step wrote (src/prerender.tsx): route -> file under dist/pages/. */
interface PrerenderedRoutes {
  pages: Record<string, string>;
  notFound: string;
  /** Routes rendered in the browser only, since what they show depends on the session. */
  browserOnly: string[];
}

/**
 * The staff console (/staff) is no page for search engines: said in the answer's header, before any script
 * runs (issue 45 item 9), since its document is the empty shell the browser renders.
 */
const NOT_INDEXED = /^\/staff(\/|$)/;

/** `/support/` and `/support` are one route; the query is not part of it. */
function routeOf(url: string): string {
  const path = url.split('?')[0]!.split('#')[0]!;
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

export async function spaRoutes(app: FastifyInstance, config: Config): Promise<boolean> {
  const indexPath = join(config.staticDir, 'index.html');
  if (!existsSync(indexPath)) return false;
  const page = (file: string): PrecompressedBody =>
    precompress(injectClientConfig(readFileSync(join(config.staticDir, file), 'utf8'), config.client));
  const shell = page('index.html');

  const routesPath = join(config.staticDir, 'pages', 'routes.json');
  const prerendered: PrerenderedRoutes | null = existsSync(routesPath) ? JSON.parse(readFileSync(routesPath, 'utf8')) : null;
  const pages = new Map(Object.entries(prerendered?.pages ?? {}).map(([route, file]) => [route, page(join('pages', file))]));
  const notFoundPage = prerendered ? page(join('pages', prerendered.notFound)) : shell;
  const browserOnly = new Set(prerendered?.browserOnly ?? []);

  await app.register(fastifyStatic, {
    root: config.staticDir,
    index: false,
    wildcard: false,
    // The build's .br/.gz siblings are sent in place of a file when the request accepts them.
    preCompressed: true,
    // Pages go out with the configuration written in (below), never as the build wrote them.
    globIgnore: ['index.html', 'index.html.*', 'pages/**', '**/*.br', '**/*.gz'],
    setHeaders: (response, filePath) => {
      response.header(
        'cache-control',
        filePath.includes(`${join(config.staticDir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      );
    },
  });

  for (const [route, body] of pages) {
    app.get(route === '/' ? '/' : route, (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
      return sendPrecompressed(request, reply, body);
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return noSuchCall(request, reply);
    }
    const route = routeOf(request.url);
    // A missing file (an old asset after a deploy) is a 404, not the page in its place.
    if (/\.[a-z0-9]+$/i.test(route)) return reply.code(404).type('text/plain').send('Not found');
    reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    if (NOT_INDEXED.test(route)) reply.header('x-robots-tag', 'noindex, nofollow');
    const prerenderedPage = pages.get(route);
    if (prerenderedPage) return sendPrecompressed(request, reply, prerenderedPage);
    if (!prerendered || browserOnly.has(route)) return sendPrecompressed(request, reply, shell);
    // The SPA's router shows its 404 page at any unknown path; the same page, prerendered, arrives first,
    // answered as what it is (HTTP 404), so crawlers and link checkers do not take it for a page (issue 22).
    reply.code(404);
    return sendPrecompressed(request, reply, notFoundPage);
  });
  return true;
}
