/**
 * Issue 31, item 3: a journey over a real socket that touches every route of the API, each request with a
 * user agent, a forged X-Forwarded-For (TRUST_PROXY is off) and a query string, leaves in the log lines,
 * in what an in-memory span exporter received and in the metrics no e-mail address, name, device name, IP
 * address, user agent, token, token hash, bearer id (checkout, portal, receipt, hand-off) or account id;
 * requests are logged and traced by their route pattern. Also: a failed job's stored output is redacted.
 */
import { beforeAll, expect, inject, test } from 'vitest';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { SpanKind } from '@opentelemetry/api';
import { startTracing } from '../../server/observability/tracing';
import { sha256 } from '../../server/domain/tokens';

// Tracing first, as server/main.ts does: pg and http are instrumented before the API's modules load them.
const exporter = new InMemorySpanExporter();
const tracing = startTracing({ OTEL_BSP_SCHEDULE_DELAY: '50' }, exporter)!;
const { describeApi } = await import('../support/describe-api');
const { mintProviderUser } = await import('../support/auth-emulator');
const { newPublicKey, RELAY_TOKEN } = await import('../support/wireguard');
const { staffUser } = await import('../support/staff');

const emulatorHost = inject('authEmulatorHost');

const USER_AGENT = 'ZeroLogProbe/7.3 (Macintosh; journey-agent)';
const FORGED_ADDRESS = '203.0.113.77';
const QUERY = 'ref=query-secret-value';

/** "METHOD /pattern" of every route the app serves (HEAD aside), read from Fastify's route tree. */
function routesOf(tree: string): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + match[2]!;
    stack[depth] = path;
    for (const method of match[3]!.split(', ')) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes;
}

/** What a span exports (the OTLP fields), as text to search. */
function exported(span: ReadableSpan): string {
  return JSON.stringify({ name: span.name, kind: span.kind, attributes: span.attributes, events: span.events, status: span.status, links: span.links });
}

/** The log lines of the block's API (each database's block starts with none, and with no spans). */
const lines: string[] = [];
const journeyApi = {
  emulatorHost,
  logger: true,
  logDestination: { write: (line: string) => void lines.push(line) },
  tracing,
  env: { LOG_LEVEL: 'info', RELAY_TOKENS: `zero-log-relay:${RELAY_TOKEN}` },
  setUp: () => {
    lines.length = 0;
    exporter.reset();
  },
};

describeApi('a journey over every route', { layer: 'sql', ...journeyApi }, (api, driver) => {
  let base = '';

  beforeAll(async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    const address = api.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  /** A request as a browser behind a forged proxy header would send it, with a query string. */
  async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${base}${path}${path.includes('?') ? '&' : '?'}${QUERY}`, {
      method,
      redirect: 'manual',
      headers: {
        ...headers,
        'user-agent': USER_AGENT,
        'x-forwarded-for': FORGED_ADDRESS,
        ...(body === undefined ? {} : { 'content-type': typeof body === 'string' ? 'application/x-www-form-urlencoded' : 'application/json' }),
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // an HTML page or a redirect
    }
    return { status: response.status, json, headers: response.headers };
  }

  test('no personal data in the log, the spans or the metrics; requests by their route pattern', async () => {
    const stamp = `${driver}${Date.now()}`;
    const email = `zero.log.${stamp}@example.com`;
    const name = `Ada Zerolog${stamp}`;
    const deviceName = `Ada's Secret MacBook ${stamp}`;
    const minted = await mintProviderUser(`http://${emulatorHost}`, { email, name });
    const post = (path: string, body: unknown) => send('POST', path, body);

    expect((await send('GET', '/api/live')).status).toBe(200);
    await send('GET', '/api/health');
    await send('GET', '/api/ready');
    await send('GET', '/api/openapi.json');
    const signIn = await post('/api/auth/google/signin', { idToken: minted.idToken });
    expect(signIn.status).toBe(200);
    const sessionToken = signIn.json.sessionToken as string;
    const userId = (signIn.json.user as { id: string }).id;
    await post('/api/auth/apple/signin', { identityToken: minted.idToken, userIdentifier: 'apple-user', email, fullName: name });
    await post('/api/auth/verify', { sessionToken });
    const handoffToken = (await post('/api/auth/handoff', { sessionToken })).json.handoffToken as string;
    const desktop = await post('/api/auth/handoff/redeem', { handoffToken, deviceName });
    expect(desktop.status).toBe(200);
    const desktopToken = desktop.json.sessionToken as string;
    const devices = (await post('/api/auth/devices', { sessionToken })).json.devices as Array<{ id: string }>;
    await post('/api/account/activity', { sessionToken });
    // Paid first: a WireGuard key needs a subscription (issue 46, item 9).
    const checkoutUrl = (await post('/api/subscription/create-checkout', { idToken: minted.idToken, email })).json.url as string;
    const checkoutPath = new URL(checkoutUrl).pathname;
    const checkoutId = checkoutPath.split('/').pop()!;
    expect((await send('GET', checkoutPath)).status).toBe(200);
    expect((await post(`${checkoutPath}/pay`, '')).status).toBe(303);
    await post(`${checkoutPath}/cancel`, '');
    // WireGuard (issue 29): the key's name, public key and addresses are the customer's too.
    await send('GET', '/api/vpn/servers');
    const keyName = `Ada's Phone ${stamp}`.slice(0, 50);
    const firstKey = newPublicKey();
    const key = (await post('/api/vpn/devices', { sessionToken, name: keyName, publicKey: firstKey, idToken: minted.idToken })).json.device as Record<string, string>;
    expect(key.publicKey).toBe(firstKey);
    expect((await post('/api/account/export', { idToken: minted.idToken })).status).toBe(200);
    // Staff calls with a customer's token: refused, but asked with the e-mail and account id in the body.
    await post('/api/staff/search', { idToken: minted.idToken, query: email });
    await post('/api/staff/customer', { idToken: minted.idToken, userId });
    await post('/api/staff/actions', { idToken: minted.idToken, userId, action: 'resend_receipt', reason: `asked by ${name}` });
    // Staff (issue 30): an admin finds the customer by e-mail, views them and acts with a reason naming them.
    const agent = await staffUser(emulatorHost, 'admin', `agent${stamp}`);
    expect((await post('/api/staff/search', { idToken: agent.idToken, query: email })).status).toBe(200);
    expect((await post('/api/staff/customer', { idToken: agent.idToken, userId })).status).toBe(200);
    await post('/api/staff/actions', { idToken: agent.idToken, userId, action: 'resend_receipt', reason: `Asked by ${email}` });

    const secondKey = newPublicKey();
    const rotated = (await post('/api/vpn/devices/rotate', { sessionToken, deviceId: key.id, publicKey: secondKey, idToken: minted.idToken })).json.device as Record<string, string>;
    const relay = { authorization: `Bearer ${RELAY_TOKEN}` };
    expect((await send('GET', '/api/relay/v1/peers', undefined, relay)).json.peers).toEqual([expect.objectContaining({ publicKey: secondKey })]);
    expect((await send('GET', '/api/relay/v1/peers?since=0', undefined, relay)).status).toBe(200);
    // The relay's own calls (issue 47) and the servers' status (issue 48): counts and ids only.
    await send('GET', '/api/relay/v1/settings', undefined, relay);
    const report = { versionApplied: 1, peers: 1, activePeers: 1, uptimeSeconds: 60, agentVersion: '1.0.0' };
    expect((await send('POST', '/api/relay/v1/health', report, relay)).status).toBe(200);
    expect((await send('GET', '/api/vpn/servers/status')).status).toBe(200);
    expect((await post('/api/vpn/devices/removal-status', { sessionToken, version: 1 })).status).toBe(200);
    expect((await post('/api/staff/servers', { idToken: agent.idToken })).status).toBe(200);
    const history = await post('/api/billing/history', { sessionToken });
    const receiptUrl = (history.json.items as Array<{ receiptUrl: string }>)[0]!.receiptUrl;
    const receiptPath = new URL(receiptUrl).pathname;
    expect((await send('GET', receiptPath)).status).toBe(200);
    const portalUrl = (await post('/api/billing/portal', { idToken: minted.idToken })).json.url as string;
    const portalPath = new URL(portalUrl).pathname;
    expect((await send('GET', portalPath)).status).toBe(200);
    await post(`${portalPath}/update`, 'card=4242');
    await post('/api/subscription/cancel', { idToken: minted.idToken });
    await post('/api/subscription/resume', { idToken: minted.idToken });
    await post('/api/dev/billing-clock/advance', { by: '1d' });
    await post('/api/webhooks/payments', { id: 'evt_forged', customer_email: email });
    await send('GET', `/api/no/such/call/${email}/${sessionToken}`);
    await post('/api/auth/devices/revoke', { sessionToken, deviceId: devices[0]!.id });
    await post('/api/subscription/refund', { idToken: minted.idToken });
    await post('/api/auth/signout', { sessionToken: desktopToken });
    await send('GET', '/api/metrics');
    expect((await send('DELETE', '/api/auth/delete-account', { email, userId, sessionToken })).status).toBe(200);
    const metrics = await (await fetch(`${base}/api/metrics`)).text();
    await tracing.flush();

    const log = lines.join('');
    const spans = exporter.getFinishedSpans();
    const spanText = spans.map(exported).join('\n');

    // Every route was asked, and each is logged and traced by its pattern (else this test proves little).
    const routes = routesOf(api.app.printRoutes({ commonPrefix: false }));
    expect(routes.length).toBeGreaterThan(25);
    const logged = new Set(lines.map((line) => JSON.parse(line) as { req?: { method: string; url: string } }).flatMap((entry) => (entry.req ? [`${entry.req.method} ${entry.req.url}`] : [])));
    const traced = new Set(spans.filter((span) => span.kind === SpanKind.SERVER).map((span) => span.name));
    // The metrics scrape is not logged on purpose (server/observability/metrics.ts).
    expect(routes.filter((route) => !logged.has(route)), 'routes without a log line').toEqual(['GET /api/metrics']);
    expect(routes.filter((route) => !traced.has(route)), 'routes without a request span').toEqual([]);
    if (driver === 'postgres') expect(spans.some((span) => span.name.startsWith('pg.query'))).toBe(true);

    const secrets = [email, name, deviceName, USER_AGENT, 'ZeroLogProbe', FORGED_ADDRESS, '127.0.0.1', 'query-secret-value', userId, minted.idToken];
    secrets.push(agent.email, agent.idToken);
    secrets.push(sessionToken, handoffToken, desktopToken, checkoutId, receiptPath.split('/').pop()!, portalPath.split('/').pop()!);
    for (const token of [sessionToken, handoffToken, desktopToken]) secrets.push(sha256(token));
    secrets.push(keyName, firstKey, secondKey, key.id!, key.ipv4Address!, key.ipv6Address!, rotated.ipv4Address!, rotated.ipv6Address!, RELAY_TOKEN);
    for (const secret of secrets) {
      expect(log.includes(secret), `the log contains ${secret.slice(0, 16)}…`).toBe(false);
      expect(spanText.includes(secret), `a span contains ${secret.slice(0, 16)}…`).toBe(false);
      expect(metrics.includes(secret), `the metrics contain ${secret.slice(0, 16)}…`).toBe(false);
    }
  });
});
