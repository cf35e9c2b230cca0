/**
 * Issue 10 §1: production fails closed. With NODE_ENV=production the API refuses to start, with one line
 * naming the variable, on the Auth emulator, a missing or demo Firebase project, no payment provider
 * (PAYMENTS=local is a loud demo opt-in), TRUST_PROXY=true, LOCAL_WEBHOOK_SECRET set, or a secret left at its
 * public development value; and the local checkout's events are never accepted through the public webhook route.
 * Issue 23: a NODE_ENV other than production, development, test or unset refuses to start, and so does
 * FIREBASE_AUTH_EMULATOR_PUBLIC_URL in production.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { assembleApi } from '../../server/assemble';
import { loadConfig } from '../../server/config';
import { signPayload } from '../../server/payments/signature';
import { checkProductionConfig, tokenEntropyBits } from '../../server/production-checks';
import { DEMO_CATALOGUE } from '../../server/vpn/catalogue';
import { mintProviderUser } from '../support/auth-emulator';
import { LOCAL_WEBHOOK_SECRET } from '../support/payments';
import { call, createTestApi, migratedDataDir, type TestApi } from '../support/server-harness';
import { onThisMachine } from '../support/machine-slowness';

const emulatorHost = inject('authEmulatorHost');

/** Server catalogues (issue 29): a real one (not marked demo), the demo one, and a broken one. */
const catalogues = mkdtempSync(join(tmpdir(), 'veil-catalogue-'));
const catalogue = (name: string, content: unknown) => {
  const path = join(catalogues, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const REAL_CATALOGUE = catalogue('servers.json', { servers: DEMO_CATALOGUE.servers });
const DEMO_FILE = catalogue('demo.json', DEMO_CATALOGUE);
const INVALID_CATALOGUE = catalogue('invalid.json', { servers: [{ ...DEMO_CATALOGUE.servers[0], publicKey: 'short' }] });
afterAll(() => rmSync(catalogues, { recursive: true, force: true }));

/** A production configuration that may start. */
const PRODUCTION = {
  VPN_SERVERS: REAL_CATALOGUE,
  RELAY_TOKENS: 'us-nyc-1:0123456789abcdef0123456789abcdef,ng-lagos-1:fedcba9876543210fedcba9876543210',
  NODE_ENV: 'production',
  FIREBASE_PROJECT_ID: 'veil-production',
  FIREBASE_API_KEY: 'AIzaSyRealLookingKey',
  STRIPE_SECRET_KEY: 'sk_live_realistic',
  STRIPE_PRICE_ID: 'price_yearly',
  STRIPE_WEBHOOK_SECRET: 'whsec_of_the_real_endpoint',
  STRIPE_PORTAL_CONFIGURATION: 'bpc_veil_vpn',
  SMTP_URL: 'smtps://veil:secret@smtp.example.com:465',
  MAIL_FROM: 'Veil VPN <hello@example.com>',
  VITE_LOG_RETENTION_DAYS: '14',
};

describe('production start-up checks', () => {
  test('a complete production configuration starts, and outside production nothing is refused', () => {
    expect(checkProductionConfig(PRODUCTION)).toEqual({ refusal: null, warnings: [] });
    expect(checkProductionConfig({ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' })).toEqual({ refusal: null, warnings: [] });
    expect(checkProductionConfig({ NODE_ENV: 'test', FIREBASE_PROJECT_ID: 'demo-veil' }).refusal).toBeNull();
  });

  test.each([
    ['no log retention is chosen', { VITE_LOG_RETENTION_DAYS: undefined }, 'VITE_LOG_RETENTION_DAYS is not set'],
    ['the log retention is not a number of days', { VITE_LOG_RETENTION_DAYS: 'forever' }, 'VITE_LOG_RETENTION_DAYS is not set'],
    ['tracing is on without a trace retention', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318', VITE_TRACING_PROCESSOR: 'Grafana Labs' }, 'VITE_TRACE_RETENTION_DAYS is not set'],
    ['tracing is on without its processor named', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318', VITE_TRACE_RETENTION_DAYS: '7' }, 'VITE_TRACING_PROCESSOR is not set'],
    ['the Auth emulator host is set', { FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }, 'FIREBASE_AUTH_EMULATOR_HOST is set'],
    ['FIREBASE_PROJECT_ID is unset', { FIREBASE_PROJECT_ID: undefined }, 'FIREBASE_PROJECT_ID is not set'],
    ['FIREBASE_PROJECT_ID is empty', { FIREBASE_PROJECT_ID: ' ' }, 'FIREBASE_PROJECT_ID is not set'],
    ['FIREBASE_PROJECT_ID is a demo- project', { FIREBASE_PROJECT_ID: 'demo-veil' }, 'FIREBASE_PROJECT_ID is "demo-veil", a demo- project'],
    [
      'no payment provider is configured',
      { STRIPE_SECRET_KEY: undefined, STRIPE_PRICE_ID: undefined, STRIPE_WEBHOOK_SECRET: undefined },
      'no payment provider: STRIPE_SECRET_KEY is not set',
    ],
    ['no Billing Portal configuration is named (issue 34)', { STRIPE_PORTAL_CONFIGURATION: undefined }, 'STRIPE_PORTAL_CONFIGURATION is not set'],
    [
      'TRUST_PROXY is true',
      { TRUST_PROXY: 'true' },
      'TRUST_PROXY=true believes any X-Forwarded-For, so a client could pick its own address and dodge the rate limits; ' +
        'set TRUST_PROXY to the number of proxies in front of the API (e.g. 1 behind one load balancer) or to their addresses (e.g. 10.0.0.0/8,192.0.2.10).',
    ],
    ['LOCAL_WEBHOOK_SECRET is set', { LOCAL_WEBHOOK_SECRET: 'whsec_any_value_at_all' }, 'LOCAL_WEBHOOK_SECRET is set, which lets the public webhook route accept'],
    ['LOCAL_WEBHOOK_SECRET has its development value', { LOCAL_WEBHOOK_SECRET: 'whsec_local_development_only' }, 'LOCAL_WEBHOOK_SECRET is set'],
    ['STRIPE_WEBHOOK_SECRET has the development value', { STRIPE_WEBHOOK_SECRET: 'whsec_local_development_only' }, 'STRIPE_WEBHOOK_SECRET still has its development value'],
    ['FIREBASE_API_KEY has the demo value', { FIREBASE_API_KEY: 'demo-api-key' }, 'FIREBASE_API_KEY still has its development value'],
    ['SMTP_URL is unset', { SMTP_URL: undefined }, 'SMTP_URL is not set, so receipts, renewal reminders and security notices could not be mailed'],
    ['MAIL_FROM is empty', { MAIL_FROM: ' ' }, 'MAIL_FROM is not set'],
    ['neither SMTP_URL nor MAIL_FROM is set', { SMTP_URL: undefined, MAIL_FROM: undefined }, 'SMTP_URL and MAIL_FROM are not set'],
    ['VPN_SERVERS is unset (the demo servers)', { VPN_SERVERS: undefined }, 'VPN_SERVERS is not set, so configurations would point at the demo servers'],
    ['VPN_SERVERS names the demo catalogue', { VPN_SERVERS: DEMO_FILE }, 'VPN_SERVERS names a demo catalogue'],
    ['VPN_SERVERS is not a valid catalogue', { VPN_SERVERS: INVALID_CATALOGUE }, `VPN_SERVERS: ${INVALID_CATALOGUE} is not a valid server catalogue: servers.0.publicKey`],
    ['VPN_SERVERS names no file', { VPN_SERVERS: join(catalogues, 'missing.json') }, 'VPN_SERVERS: cannot read'],
    ['a relay token is shorter than 32 characters', { RELAY_TOKENS: 'us-nyc-1:0123456789abcdef0123456789abcdef,ng-lagos-1:short' }, 'RELAY_TOKENS: the token of relay "ng-lagos-1" is shorter than 32 characters'],
    ['REQUEST_TIMEOUT is 0 (issue 34)', { REQUEST_TIMEOUT: '0' }, 'REQUEST_TIMEOUT is "0", which turns off the cut of requests whose headers and body trickle in'],
    ['REQUEST_TIMEOUT is 0s', { REQUEST_TIMEOUT: '0s' }, 'REQUEST_TIMEOUT is "0s"'],
    ['a relay token is spaces (issue 46)', { RELAY_TOKENS: `us-nyc-1:0123456789abcdef0123456789abcdef,ng-lagos-1:-${' '.repeat(32)}-` }, 'RELAY_TOKENS: the token of relay "ng-lagos-1" has less than 128 bits of entropy'],
    ['a relay token is one letter repeated', { RELAY_TOKENS: `us-nyc-1:${'a'.repeat(64)},ng-lagos-1:fedcba9876543210fedcba9876543210` }, 'RELAY_TOKENS: the token of relay "us-nyc-1" has less than 128 bits of entropy'],
    ['a relay token is two letters alternating', { RELAY_TOKENS: `us-nyc-1:${'ab'.repeat(40)},ng-lagos-1:fedcba9876543210fedcba9876543210` }, 'RELAY_TOKENS: the token of relay "us-nyc-1" has less than 128 bits of entropy'],
    ['a metrics token is 32 spaces', { METRICS_TOKEN: ' '.repeat(32) }, 'METRICS_TOKEN has less than 128 bits of entropy'],
    ['a metrics token is one letter repeated', { METRICS_TOKEN: 'a'.repeat(32) }, 'METRICS_TOKEN has less than 128 bits of entropy'],
    ['REQUEST_TIMEOUT is longer than Node can time', { REQUEST_TIMEOUT: '30d' }, 'REQUEST_TIMEOUT is "30d", longer than Node can time'],
    ['a relay token names no catalogue server (issue 47)', { RELAY_TOKENS: 'us-nyc-1:0123456789abcdef0123456789abcdef,ng-lagos-1:fedcba9876543210fedcba9876543210,de-fra-1:00112233445566778899aabbccddeeff' }, 'RELAY_TOKENS: "de-fra-1" is not a server id of the catalogue'],
    ['a real catalogue has no relay tokens', { RELAY_TOKENS: undefined }, 'RELAY_TOKENS is not set, so no VPN server of the catalogue could learn who may connect'],
    ['a catalogue server has no relay token', { RELAY_TOKENS: 'us-nyc-1:0123456789abcdef0123456789abcdef' }, 'RELAY_TOKENS has no token for catalogue server "ng-lagos-1"'],
    ['METRICS_TOKEN is short (issue 34)', { METRICS_TOKEN: 'scrape-me-please' }, 'METRICS_TOKEN is shorter than 32 characters, so it could be guessed'],
    [
      'the website is pointed at an Auth emulator',
      { FIREBASE_AUTH_EMULATOR_PUBLIC_URL: 'http://emulator.example:9099' },
      'FIREBASE_AUTH_EMULATOR_PUBLIC_URL is set',
    ],
  ])('refuses when %s, in one line naming the variable', (_name, change, reason) => {
    const { refusal } = checkProductionConfig({ ...PRODUCTION, ...change });
    expect(refusal).toContain(`Refusing to start with NODE_ENV=production: ${reason}`);
    expect(refusal).not.toContain('\n');
  });

  test('a request timeout of seconds and a metrics token of 32 characters or more start (issue 34)', () => {
    expect(checkProductionConfig({ ...PRODUCTION, REQUEST_TIMEOUT: '10s', METRICS_TOKEN: '0123456789abcdef0123456789abcdef' })).toEqual({ refusal: null, warnings: [] });
    // The longest REQUEST_TIMEOUT Node can time (its idle cut is twice it): 12 days.
    expect(checkProductionConfig({ ...PRODUCTION, REQUEST_TIMEOUT: '12d' }).refusal).toBeNull();
  });

  test('a token\'s entropy is estimated from its length, its character classes and its distinct characters (issue 46, item 13)', () => {
    expect(tokenEntropyBits(' '.repeat(32))).toBe(0);
    expect(tokenEntropyBits('a'.repeat(100))).toBe(0);
    // 32 hex digits (openssl rand -hex 16): 16 distinct characters at most, 4 bits each.
    expect(tokenEntropyBits('0123456789abcdef0123456789abcdef')).toBe(128);
    expect(tokenEntropyBits('ab'.repeat(40))).toBe(80);
    expect(tokenEntropyBits('0123456789abcdef'.repeat(2).slice(0, 31))).toBeLessThan(128);
    expect(tokenEntropyBits('q8Vz3+Lk/9mWpXr2TfYc5HnB0sJd7GaE1uKiOw6lRbM=')).toBeGreaterThan(200);
  });

  test('MAIL=off starts without a mail server, on purpose', () => {
    expect(checkProductionConfig({ ...PRODUCTION, SMTP_URL: undefined, MAIL_FROM: undefined, MAIL: 'off' }).refusal).toBeNull();
    expect(loadConfig({ MAIL: 'off' }).mail).toBeNull();
    expect(loadConfig({}).mail).toEqual({ smtpUrl: 'smtp://127.0.0.1:1025', from: '"Veil VPN" <no-reply@veil.localhost>' });
  });

  test('PAYMENTS=local is an explicit demo opt-in that the start-up log states loudly', () => {
    const local = { ...PRODUCTION, STRIPE_SECRET_KEY: undefined, STRIPE_PRICE_ID: undefined, STRIPE_WEBHOOK_SECRET: undefined, PAYMENTS: 'local' };
    const { refusal, warnings } = checkProductionConfig(local);
    expect(refusal).toBeNull();
    expect(warnings).toEqual([expect.stringContaining('PAYMENTS=local: THIS IS A DEMO')]);
    // The whole-product demo may run on the demo servers, and says so.
    expect(checkProductionConfig({ ...local, VPN_SERVERS: undefined }).warnings).toEqual([
      expect.stringContaining('VPN_SERVERS is not set (allowed with PAYMENTS=local only)'),
      expect.stringContaining('PAYMENTS=local: THIS IS A DEMO'),
    ]);
    // The opt-in does not excuse an emulator or a demo project, nor a secret that would let the public
    // webhook route accept local events (the local checkout signs in process with a per-start secret).
    expect(checkProductionConfig({ ...local, FIREBASE_PROJECT_ID: 'demo-veil' }).refusal).toContain('FIREBASE_PROJECT_ID');
    expect(checkProductionConfig({ ...local, LOCAL_WEBHOOK_SECRET: LOCAL_WEBHOOK_SECRET }).refusal).toContain('LOCAL_WEBHOOK_SECRET is set');
  });

  test('an invalid catalogue, address pool or RELAY_TOKENS entry stops the API in any environment', () => {
    expect(() => loadConfig({ VPN_SERVERS: INVALID_CATALOGUE })).toThrow(/^Invalid configuration: VPN_SERVERS: .* is not a valid server catalogue/);
    expect(() => loadConfig({ VPN_IPV4_POOL: '8.8.8.0/24' })).toThrow('VPN_IPV4_POOL: "8.8.8.0/24" is not a private IPv4 range');
    expect(() => loadConfig({ VPN_IPV6_POOL: '2001:db8::/48' })).toThrow('VPN_IPV6_POOL: "2001:db8::/48" is not a unique local IPv6 range');
    expect(() => loadConfig({ RELAY_TOKENS: 'no-colon' })).toThrow('RELAY_TOKENS: each entry must be relayId:token');
    expect(loadConfig({ VPN_SERVERS: REAL_CATALOGUE }).vpnServers).toEqual({ demo: false, servers: DEMO_CATALOGUE.servers });
    expect(loadConfig({}).vpnServers.demo).toBe(true);
  });

  test('without LOCAL_WEBHOOK_SECRET each start signs the local checkout with a fresh random secret', () => {
    const first = loadConfig({}).localWebhookSecret;
    const second = loadConfig({}).localWebhookSecret;
    expect(first).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    expect(first).not.toBe(LOCAL_WEBHOOK_SECRET);
  });
});

/**
 * Runs `server/main.ts` as `npm start` would; resolves with its exit code and output once `until` matches.
 * `until`: a start expected to succeed, on a copy of the migrated database (a refusal opens no database).
 */
function startServer(env: Record<string, string>, until?: RegExp) {
  const dataDir = until ? migratedDataDir('veil-prod-check-') : mkdtempSync(join(tmpdir(), 'veil-prod-check-'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(process.cwd(), 'server', 'main.ts')], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, STATIC_DIR: '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const check = () => {
      if (until?.test(stdout)) child.kill('SIGTERM');
    };
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
      check();
    });
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('exit', (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    });
    setTimeout(() => child.kill('SIGKILL'), onThisMachine(80_000)).unref();
  });
}

describe('the API process', () => {
  test('refuses to start in production with the emulator host set: exit 1 and one line', async () => {
    const { code, stderr, stdout } = await startServer({ ...PRODUCTION, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(
      'Refusing to start with NODE_ENV=production: FIREBASE_AUTH_EMULATOR_HOST is set, which makes firebase-admin accept unsigned tokens; unset it.',
    );
  });

  // Issue 23: a misspelt NODE_ENV used to run as development, with none of the production checks.
  test.each(['Production', 'prod', 'production ', 'PRODUCTION', 'staging'])('refuses to start with NODE_ENV=%j: exit 1 and one line', async (nodeEnv) => {
    const { code, stderr, stdout } = await startServer({ ...PRODUCTION, NODE_ENV: nodeEnv, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(
      `Refusing to start: NODE_ENV is ${JSON.stringify(nodeEnv)}; use production, development or test (exactly), or leave it unset.`,
    );
  }, onThisMachine(60_000));

  test('starts in production with PAYMENTS=local and says so loudly in its log', async () => {
    const { stdout } = await startServer(
      { NODE_ENV: 'production', FIREBASE_PROJECT_ID: 'veil-production', PAYMENTS: 'local', MAIL: 'off', VITE_LOG_RETENTION_DAYS: '14' },
      /THIS IS A DEMO/,
    );
    expect(stdout).toContain('API ready');
    expect(stdout).toContain('PAYMENTS=local: THIS IS A DEMO');
  }, onThisMachine(90_000));
});

describe('the local checkout and the public webhook route', () => {
  let api: TestApi;
  beforeAll(async () => {
    // As `npm start` runs it: no LOCAL_WEBHOOK_SECRET, so the secret is made at start.
    api = await createTestApi({ driver: 'pglite', emulatorHost, env: { LOCAL_WEBHOOK_SECRET: '' } });
  });
  afterAll(() => api?.close());

  test('an event signed with the secret committed in the repository is refused; Pay still works in process', async () => {
    const minted = await mintProviderUser(`http://${emulatorHost}`, { email: `forger.${Date.now()}@example.com` });
    const signedIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
    const userId = (signedIn.body.user as { id: string }).id;
    const now = Math.floor(Date.now() / 1000);
    const forged = JSON.stringify({
      id: `evt_forged_${now}`,
      type: 'customer.subscription.created',
      created: now,
      data: { object: { id: 'sub_forged', status: 'active', cancel_at_period_end: false, current_period_end: 2_100_000_000, metadata: { userId } } },
    });
    const delivered = await api.app.inject({
      method: 'POST',
      url: '/api/webhooks/payments',
      payload: forged,
      headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(forged, LOCAL_WEBHOOK_SECRET) },
    });
    expect(delivered.statusCode).toBe(400);
    expect(delivered.json()).toEqual({ success: false, error: 'Invalid webhook signature.', code: 'webhook_invalid' });
    const sessionToken = signedIn.body.sessionToken as string;
    expect((await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).body.subscription).toBeNull();

    const checkout = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: minted.idToken, email: minted.email });
    const paid = await api.app.inject({ method: 'POST', url: `${new URL(checkout.body.url as string).pathname}/pay` });
    expect(paid.headers.location).toBe('/success');
    expect((await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).body.subscription).toMatchObject({ status: 'active' });
  });
});

describe('the development calls (/api/dev) as server/main.ts builds the app (issue 34)', () => {
  const advance = async (env: Record<string, string>) => {
    const dataDir = migratedDataDir('veil-dev-routes-');
    const api = await assembleApi({ DATA_DIR: dataDir, STATIC_DIR: '/nonexistent-static-dir', MAIL: 'off', LOG_LEVEL: 'silent', ...env });
    try {
      return (await api.app.inject({ method: 'POST', url: '/api/dev/billing-clock/advance', payload: { by: '1d' } })).statusCode;
    } finally {
      await api.app.close();
      await api.database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  };

  // One test per value: each assembles an API as server/main.ts does, on a copy of the migrated database
  // (on a new data folder, initdb and every migration took 10 to 15 s on a busy machine).
  test.each<{ label: string; env: Record<string, string>; status: number }>([
    { label: 'unset', env: {}, status: 404 },
    { label: 'empty', env: { NODE_ENV: '' }, status: 404 },
    { label: 'development', env: { NODE_ENV: 'development' }, status: 200 },
    { label: 'test', env: { NODE_ENV: 'test' }, status: 200 },
  ])('exist only with NODE_ENV=development or test: NODE_ENV $label answers $status', async ({ env, status }) => {
    expect(await advance(env)).toBe(status);
  }, onThisMachine(60_000));
});
