/**
 * Issue 32 item 4: the entry script asks for a signed-in page's first answers (src/services/early-answers.ts)
 * and the app's client takes each one once, for the same call with the same session token, while it is fresh;
 * everything else asks the API. The API is a real HTTP server on a free port that counts what it is asked.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { api } from '../../src/services/api-client';
import { resolveRelativeUrlsAgainst } from '../support/same-origin';
import { askFirstCallsEarly, FRESH_FOR_MS } from '../../src/services/early-answers';

const user = { id: 'u1', email: 'a@example.com', name: 'A' };
let asked: { path: string; body: unknown }[] = [];
let status = 200;
let server: Server;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk));
    request.on('end', () => {
      asked.push({ path: request.url!, body: JSON.parse(body || 'null') });
      response.writeHead(status, { 'content-type': 'application/json' });
      const answer = request.url === '/api/auth/verify' ? { success: true, user, subscription: null } : { success: true, devices: [] };
      response.end(JSON.stringify(status === 200 ? answer : { error: 'Session expired', code: 'session_invalid' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  resolveRelativeUrlsAgainst(base);
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  asked = [];
  status = 200;
});

afterEach(() => vi.restoreAllMocks());

/** Until the server has received `count` requests. */
async function receivedRequests(count: number) {
  await vi.waitFor(() => expect(asked.length).toBe(count));
}

describe('a signed-in page asks for its first answers as it starts', () => {
  test('/account asks for the session check and its three lists, each with the stored token alone', async () => {
    askFirstCallsEarly('/account', 'token-a');
    await receivedRequests(4);
    expect(asked.map(({ path }) => path).sort()).toEqual(['/api/account/activity', '/api/auth/devices', '/api/auth/verify', '/api/billing/history']);
    expect(asked.every(({ body }) => JSON.stringify(body) === '{"sessionToken":"token-a"}')).toBe(true);
    // Taken by the app (so none is left for the tests below).
    await api.verify('token-a');
    await api.listDevices('token-a');
    await api.billingHistory('token-a').catch(() => {});
    await api.accountActivity('token-a').catch(() => {});
    expect(asked).toHaveLength(4);
  });

  test('nothing is asked without a stored session, nor on a page that does not wait for it', async () => {
    askFirstCallsEarly('/account', null);
    askFirstCallsEarly('/', 'token-b');
    askFirstCallsEarly('/support', 'token-b');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(asked).toEqual([]);
  });
});

describe('the app takes an early answer once, for the same call and token, while it is fresh', () => {
  test('the first verify takes the answer on its way; the next one asks the API', async () => {
    askFirstCallsEarly('/subscribe', 'token-c');
    await receivedRequests(1);
    expect((await api.verify('token-c')).user.email).toBe('a@example.com');
    expect(asked).toHaveLength(1);
    await api.verify('token-c');
    expect(asked).toHaveLength(2);
  });

  test('another session token asks the API (another tab signed in meanwhile)', async () => {
    askFirstCallsEarly('/subscribe', 'token-d');
    await receivedRequests(1);
    await api.verify('token-e');
    expect(asked.map(({ body }) => body)).toEqual([{ sessionToken: 'token-d' }, { sessionToken: 'token-e' }]);
    await api.verify('token-d'); // the early answer, taken: no request
    expect(asked).toHaveLength(2);
  });

  test(`an answer older than ${FRESH_FOR_MS / 1000} s is not used: the app asks again`, async () => {
    askFirstCallsEarly('/subscribe', 'token-f');
    await receivedRequests(1);
    const now = performance.now();
    vi.spyOn(performance, 'now').mockReturnValue(now + FRESH_FOR_MS + 1);
    await api.verify('token-f');
    expect(asked).toHaveLength(2);
  });

  test('a refusal on its way is the app\'s refusal: the same error as its own call would get', async () => {
    status = 401;
    askFirstCallsEarly('/subscribe', 'token-g');
    await receivedRequests(1);
    await expect(api.verify('token-g')).rejects.toMatchObject({ message: 'Session expired', status: 401, code: 'session_invalid' });
    expect(asked).toHaveLength(1);
  });
});
