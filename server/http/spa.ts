/**
 * Serves the built SPA from the API's origin (design §7: production is one origin): hashed assets with a
 * year's cache, and index.html, with the runtime client configuration written in, for every other path.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { injectClientConfig } from '../../contract/client-config.ts';
import type { Config } from '../config.ts';

export async function spaRoutes(app: FastifyInstance, config: Config): Promise<boolean> {
  const indexPath = join(config.staticDir, 'index.html');
  if (!existsSync(indexPath)) return false;
  const indexHtml = injectClientConfig(readFileSync(indexPath, 'utf8'), config.client);

  await app.register(fastifyStatic, {
    root: config.staticDir,
    index: false,
    wildcard: false,
    allowedPath: (pathName) => pathName !== '/index.html',
    setHeaders: (response, filePath) => {
      response.header(
        'cache-control',
        filePath.includes(`${join(config.staticDir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      );
    },
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send({ success: false, error: `No such call: ${request.method} ${request.url.split('?')[0]}` });
    }
    // A missing file (an old asset after a deploy) is a 404, not the page in its place.
    if (/\.[a-z0-9]+$/i.test(request.url.split('?')[0]!)) return reply.code(404).type('text/plain').send('Not found');
    return reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
  });
  return true;
}
