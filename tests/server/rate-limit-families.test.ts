/**
 * Each route under /api names its rate-limit family in its own route options (issue 33, item 4), so a new
 * route cannot silently get another route's limit or a default: the API refuses to start with a route
 * that names none, and says how to name one. (Every server test builds the whole API, so each of its
 * routes is held to this; tests/server/rate-limits.test.ts checks each family's limit.)
 */
import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../server/config';
import { registerRateLimits } from '../../server/http/rate-limits';

const config = loadConfig({ LOG_LEVEL: 'silent', MAIL: 'off', STATIC_DIR: '/nonexistent', RATE_LIMIT_SCALE: '0.05' });

async function appWith(register: (app: ReturnType<typeof Fastify>) => void) {
  const app = Fastify();
  await registerRateLimits(app, config);
  register(app);
  return app;
}

describe('rate-limit families in the routes own options', () => {
  test('a route under /api without a family stops the API at start-up, with what to add', async () => {
    const app = await appWith(() => {});
    expect(() => app.post('/api/new-call', async () => ({ success: true }))).toThrow(
      "POST /api/new-call declares no rate-limit family: add `config: { rateLimitFamily: '…' }` to its route options, one of signIn, handoff, verify,",
    );
    await app.close();
  });

  test('a route naming its family gets that family\'s limit; a route outside /api (the website) needs none', async () => {
    const app = await appWith((api) => {
      api.post('/api/new-call', { config: { rateLimitFamily: 'checkout' } }, async () => ({ success: true }));
      api.get('/somewhere', async () => 'page');
    });
    const answer = await app.inject({ method: 'POST', url: '/api/new-call' });
    expect(answer.statusCode).toBe(200);
    // checkout: 10 a minute, at a twentieth of the production scale at least 1.
    expect(answer.headers['x-ratelimit-limit']).toBe('1');
    expect((await app.inject({ method: 'POST', url: '/api/new-call' })).statusCode).toBe(429);
    expect((await app.inject({ method: 'GET', url: '/somewhere' })).statusCode).toBe(200);
    await app.close();
  });
});
