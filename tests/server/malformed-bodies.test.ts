/**
 * Property test: whatever body arrives, the API answers 4xx JSON with a string error, never a 5xx.
 * FUZZ_RUNS bodies per endpoint (default 1,000; `npm run fuzz` sends 20,000).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { failures } from '../../server/domain/errors';
import { createTestApi, type TestApi } from '../support/server-harness';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const verifier = {
  verify: async (token: string) => {
    if (!token.startsWith('valid-')) throw failures.invalidToken();
    return { subject: token, email: `${token}@example.com`, name: token };
  },
};

const ENDPOINTS: Array<{ method: 'POST' | 'DELETE'; url: string; fields: string[] }> = [
  { method: 'POST', url: '/api/auth/google/signin', fields: ['idToken'] },
  { method: 'POST', url: '/api/auth/apple/signin', fields: ['identityToken', 'userIdentifier', 'email', 'fullName'] },
  { method: 'POST', url: '/api/auth/verify', fields: ['sessionToken'] },
  { method: 'POST', url: '/api/auth/signout', fields: ['sessionToken'] },
  { method: 'POST', url: '/api/auth/handoff', fields: ['sessionToken'] },
  { method: 'POST', url: '/api/auth/handoff/redeem', fields: ['handoffToken', 'deviceName'] },
  { method: 'POST', url: '/api/auth/devices', fields: ['sessionToken'] },
  { method: 'POST', url: '/api/auth/devices/revoke', fields: ['sessionToken', 'deviceId'] },
  { method: 'DELETE', url: '/api/auth/delete-account', fields: ['email', 'userId', 'sessionToken'] },
  { method: 'POST', url: '/api/subscription/create-checkout', fields: ['idToken', 'email'] },
  { method: 'POST', url: '/api/subscription/cancel', fields: ['idToken'] },
  { method: 'POST', url: '/api/webhooks/payments', fields: ['id', 'type', 'created', 'data'] },
  { method: 'POST', url: '/api/dev/billing-clock/advance', fields: ['by'] },
];

/** Bodies of every kind: any JSON, objects with the right field names but wrong values, raw text. */
function bodies(fields: string[]) {
  const value = fc.oneof(
    fc.anything(),
    fc.string({ maxLength: 300 }),
    fc.constantFrom('', ' ', 'valid-user', '../../etc/passwd', "'; DROP TABLE users; --", '\u0000', 'x'.repeat(9000)),
    fc.integer(),
    fc.constant(null),
  );
  const shaped = fc.dictionary(fc.constantFrom(...fields, '__proto__', 'constructor'), value);
  return fc.oneof(
    shaped.map((object) => ({ json: object })),
    fc.jsonValue().map((json) => ({ json })),
    fc.string({ maxLength: 200 }).map((text) => ({ raw: text })),
  );
}

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi({ driver: 'pglite', verifier, env: { RATE_LIMIT_SIGN_IN: '1000000', RATE_LIMIT_SCALE: '1000000' } });
});
afterAll(() => api?.close());

describe('malformed bodies never cause a 5xx', () => {
  for (const endpoint of ENDPOINTS) {
    test(`${endpoint.method} ${endpoint.url} (${RUNS} bodies)`, async () => {
      await fc.assert(
        fc.asyncProperty(bodies(endpoint.fields), async (body) => {
          const response = await api.app.inject({
            method: endpoint.method,
            url: endpoint.url,
            payload: 'raw' in body ? body.raw : JSON.stringify(body.json),
            headers: { 'content-type': 'application/json' },
          });
          expect(response.statusCode).toBeLessThan(500);
          if (response.statusCode >= 400) {
            const answer = response.json() as { success?: unknown; error?: unknown };
            expect(answer.success).toBe(false);
            expect(typeof answer.error).toBe('string');
            expect(String(answer.error)).not.toMatch(/\n\s+at /);
          }
        }),
        { numRuns: RUNS },
      );
    }, 120_000);
  }
});
