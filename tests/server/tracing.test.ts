/**
 * Issue 23, item 7: with OTEL_EXPORTER_OTLP_ENDPOINT set, the API exports spans over OTLP/HTTP (an OTLP
 * receiver stand-in here): a span per request, the PostgreSQL queries beneath it, and outgoing HTTP
 * calls; log entries inside a request carry its trace id.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { startApiProcess, TIMEOUT_WITH_API_PROCESS_START, urlWithSchema, type ApiProcess } from '../support/api-process';
import { mintProviderUser } from '../support/auth-emulator';
import { postgresAvailable, TEST_DATABASE_URL } from '../support/server-harness';

const emulatorHost = inject('authEmulatorHost');
const noPostgres = !(await postgresAvailable());

interface ExportedSpan {
  name: string;
  traceId: string;
  kind: number;
}

/** Collects every span POSTed to /v1/traces (OTLP/HTTP, JSON). */
async function startOtlpReceiver() {
  const spans: ExportedSpan[] = [];
  const paths: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += String(chunk)));
    request.on('end', () => {
      paths.push(request.url ?? '');
      const payload = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: ExportedSpan[] }> }> };
      for (const resource of payload.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, paths, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe.skipIf(noPostgres)('traces over OTLP/HTTP', () => {
  const schema = `veil_otel_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let api: ApiProcess;

  beforeAll(async () => {
    await (await openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL, schema })).close();
    receiver = await startOtlpReceiver();
    api = await startApiProcess({
      DATABASE_URL: urlWithSchema(TEST_DATABASE_URL, schema),
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      LOG_LEVEL: 'info',
    });
  }, TIMEOUT_WITH_API_PROCESS_START);

  afterAll(async () => {
    await api?.stop();
    await receiver?.close();
    const { default: pg } = await import('pg');
    const sql = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await sql.connect();
    await sql.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`);
    await sql.end();
  });

  test('a request span with its database queries beneath it, and its trace id in the log', async () => {
    const answer = await fetch(`${api.url}/api/auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionToken: 'no-such-session' }),
    });
    expect(answer.status).toBe(401);
    // The verify call's own trace: its HTTP server span, the request span and a query beneath them.
    const traceOf = (name: string) => receiver.spans.find((span) => span.name === name)?.traceId;
    await expect.poll(() => traceOf('POST /api/auth/verify'), { timeout: 15_000 }).toBeDefined();
    const traceId = traceOf('POST /api/auth/verify')!;
    await expect.poll(() => receiver.spans.filter((span) => span.traceId === traceId).map((span) => span.name.split(':')[0]), { timeout: 15_000 }).toEqual(
      expect.arrayContaining(['request', 'pg.query']),
    );
    expect(receiver.paths.every((path) => path === '/v1/traces')).toBe(true);
    expect(api.logs.join('')).toContain(`"trace_id":"${traceId}"`);
  });

  test('an outgoing HTTP call (the Auth emulator here, Stripe in production) is a client span of its request', async () => {
    const minted = await mintProviderUser(`http://${emulatorHost}`, { email: `otel.${randomUUID()}@example.com` });
    const post = (path: string, body: unknown) =>
      fetch(`${api.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/api/auth/google/signin', { idToken: minted.idToken })).status).toBe(200);
    // Checkout checks the token's revocation with Firebase over HTTP.
    expect((await post('/api/subscription/create-checkout', { idToken: minted.idToken, email: minted.email })).status).toBe(200);
    const traceOf = (name: string) => receiver.spans.find((span) => span.name === name)?.traceId;
    await expect.poll(() => traceOf('POST /api/subscription/create-checkout'), { timeout: 15_000 }).toBeDefined();
    const traceId = traceOf('POST /api/subscription/create-checkout')!;
    const SPAN_KIND_CLIENT = 3;
    await expect.poll(() => receiver.spans.some((span) => span.traceId === traceId && span.kind === SPAN_KIND_CLIENT && /^(GET|POST)$/.test(span.name)), { timeout: 15_000 }).toBe(true);
  });
});
