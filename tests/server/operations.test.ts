/**
 * Issue 23, items 3 and 6: a request trickled a byte at a time is cut by REQUEST_TIMEOUT (408 JSON),
 * broken HTTP framing is refused and counted, and GET /api/metrics, read over HTTP, shows per-route
 * request-duration histograms, the process's metrics and the product counters; in production only with
 * the bearer METRICS_TOKEN (404 otherwise).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { startApiProcess, TIMEOUT_WITH_API_PROCESS_START } from '../support/api-process';
import { apiErrorHandler, clientErrorHandler } from '../../server/http/framework-errors';
import { mintProviderUser } from '../support/auth-emulator';
import { createTestApi, migratedDataDir, type TestApi } from '../support/server-harness';
import { onThisMachine } from '../support/machine-slowness';

const emulatorHost = inject('authEmulatorHost');

async function listen(api: TestApi): Promise<string> {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
}

/** Sends `head` and then `body` one byte every `everyMs`; resolves with what came back and the bytes sent. */
function trickle(base: string, head: string, body: string, everyMs: number) {
  const { hostname, port } = new URL(base);
  return new Promise<{ answer: string; bytesSent: number }>((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    let bytesSent = 0;
    const timer = setInterval(() => {
      if (bytesSent < body.length && socket.writable) socket.write(body[bytesSent++]!);
    }, everyMs);
    socket.write(head);
    socket.on('data', (chunk) => (answer += String(chunk)));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, bytesSent });
    });
  });
}

async function metricsText(base: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/api/metrics`, { headers });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('request timeouts and malformed requests', () => {
  let api: TestApi;
  let base: string;
  beforeAll(async () => {
    api = await createTestApi({ driver: 'pglite', emulatorHost, env: { REQUEST_TIMEOUT: '2s' } });
    base = await listen(api);
  });
  afterAll(() => api?.close());

  test('a body trickled a byte at a time is cut with a 408 JSON answer', async () => {
    const body = JSON.stringify({ sessionToken: 'x'.repeat(40) });
    const head = `POST /api/auth/verify HTTP/1.1\r\nHost: veil.test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { answer, bytesSent } = await trickle(base, head, body, 400);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('{"success":false,"error":"The request took too long.","code":"bad_http_request"}');
    expect(bytesSent).toBeLessThan(body.length);
  }, onThisMachine(40_000));

  test('broken chunked framing is refused with 400 JSON and counted by kind', async () => {
    const head = 'POST /api/auth/verify HTTP/1.1\r\nHost: veil.test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    const { answer } = await trickle(base, `${head}5\r\n{"a":\r\nZZZ\r\n`, '', 1000);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"code":"bad_http_request"');
    const { text } = await metricsText(base);
    expect(text).toMatch(/^veil_malformed_requests_total\{kind="(malformed|broken_body)"\} 1$/m);
  });
});

describe('the log of a malformed request', () => {
  test('one info line without a stack, however often a client sends one', async () => {
    const dataDir = migratedDataDir('veil-ops-');
    const api = await startApiProcess({ LOG_LEVEL: 'info', DATA_DIR: dataDir });
    try {
      const head = 'POST /api/auth/verify HTTP/1.1\r\nHost: veil.test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect((await trickle(api.url, `${head}5\r\n{"a":\r\nZZZ\r\n`, '', 1000)).answer).toMatch(/^HTTP\/1\.1 400 /);
      }
      await expect.poll(() => api.logs.join('').split('\n').filter((line) => line.includes('refused before routing')).length).toBe(3);
      const lines = api.logs.join('').split('\n').filter((line) => line.includes('HPE_'));
      expect(lines).toHaveLength(3);
      for (const line of lines) {
        expect(JSON.parse(line)).toMatchObject({ level: 30, kind: 'malformed' });
        expect(line).not.toContain('stack');
      }
      expect(api.logs.join('')).not.toMatch(/"level":50/);
    } finally {
      await api.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, TIMEOUT_WITH_API_PROCESS_START);
});

describe('a request whose framing breaks while its hooks still run (issue 34)', () => {
  test('whatever then fails is logged as the broken request it is: info, no stack, no "unexpected failure"', async () => {
    const lines: string[] = [];
    const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } });
    app.server.on('clientError', (error: Error & { code?: string }, socket: Socket) => clientErrorHandler(error, socket, app.log));
    app.setErrorHandler((error, request, reply) => apiErrorHandler(error as never, request, reply));
    // Like the rate-limit hook: it awaits, then reads the client's socket, which the parser's refusal destroyed.
    app.addHook('onRequest', async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (request.raw.socket.destroyed) throw new Error('the socket is gone');
    });
    app.post('/api/auth/verify', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const head = 'POST /api/auth/verify HTTP/1.1\r\nHost: veil.test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
      // One packet: the headers, a good chunk and a broken one.
      expect((await trickle(base, `${head}2\r\n{}\r\nZZ\r\n`, '', 1000)).answer).toMatch(/^HTTP\/1\.1 400 /);
      await expect.poll(() => lines.some((line) => line.includes('request body stream broke'))).toBe(true);
      const entries = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(entries.filter((entry) => entry.level >= 50)).toEqual([]);
      expect(lines.join('')).not.toContain('unexpected failure');
      expect(lines.join('')).not.toContain('"stack"');
    } finally {
      await app.close();
    }
  });
});

describe('GET /api/metrics', () => {
  let api: TestApi;
  let base: string;
  beforeAll(async () => {
    api = await createTestApi({ driver: 'pglite', emulatorHost });
    base = await listen(api);
  });
  afterAll(() => api?.close());

  test('per-route request histograms, process metrics and the product counters, in Prometheus text', async () => {
    const minted = await mintProviderUser(`http://${emulatorHost}`, { email: `metrics.${randomUUID()}@example.com` });
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const signedIn = await post('/api/auth/google/signin', { idToken: minted.idToken });
    expect(await signedIn.text()).toContain('sessionToken');
    expect((await post('/api/auth/google/signin', { idToken: 'not-a-token' })).status).toBe(401);
    const checkout = await post('/api/subscription/create-checkout', { idToken: minted.idToken, email: minted.email });
    expect(checkout.status).toBe(200);
    const { url } = (await checkout.json()) as { url: string };
    expect((await fetch(`${base}${new URL(url).pathname}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    expect((await fetch(`${base}/api/live`)).status).toBe(200);

    const { status, type, text } = await metricsText(base);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain/);
    // Per route, method and status: the route's pattern, never the URL a caller typed.
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/api\/live",status_code="200"\} 1$/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0\.1",method="POST",route="\/api\/auth\/google\/signin",status_code="401"\} 1$/m);
    expect(text).toMatch(/route="\/api\/checkout\/local\/:id\/pay"/);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(text).toMatch(/^veil_sign_ins_total\{provider="google",outcome="success"\} 1$/m);
    expect(text).toMatch(/^veil_sign_ins_total\{provider="google",outcome="refused"\} 1$/m);
    expect(text).toMatch(/^veil_checkouts_total\{outcome="success"\} 1$/m);
    expect(text).toMatch(/^veil_webhook_events_total\{type="[a-z._]+",outcome="applied"\} [1-9]/m);
    expect(text).toMatch(/^veil_webhook_event_lag_seconds_count\{type="[a-z._]+"\} [1-9]/m);
    for (const name of ['veil_jobs_queued_total', 'veil_jobs_failed_total', 'veil_mail_sent_total', 'veil_mail_failed_total', 'veil_rate_limit_refusals_total']) {
      expect(text).toContain(`# TYPE ${name} counter`);
    }
    expect(text).not.toContain(minted.email);
  });
});

describe('GET /api/metrics in production', () => {
  const apis: TestApi[] = [];
  afterAll(async () => {
    for (const api of apis) await api.close();
  });

  test('answers only with the bearer METRICS_TOKEN; without one configured, never', async () => {
    const token = randomUUID();
    const guarded = await createTestApi({ driver: 'pglite', emulatorHost, env: { NODE_ENV: 'production', METRICS_TOKEN: token } });
    const unset = await createTestApi({ driver: 'pglite', emulatorHost, env: { NODE_ENV: 'production' } });
    apis.push(guarded, unset);
    const [guardedBase, unsetBase] = [await listen(guarded), await listen(unset)];
    const notFound = { success: false, error: 'No such call: GET /api/metrics', code: 'no_such_call' };

    for (const headers of [{} as Record<string, string>, { authorization: `Bearer ${token}x` }, { authorization: token }]) {
      const answer = await metricsText(guardedBase, headers);
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.text)).toEqual(notFound);
    }
    const allowed = await metricsText(guardedBase, { authorization: `Bearer ${token}` });
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain('# TYPE veil_sign_ins_total counter');

    expect((await metricsText(unsetBase, { authorization: 'Bearer ' })).status).toBe(404);
    expect((await metricsText(unsetBase)).status).toBe(404);
  });
});
