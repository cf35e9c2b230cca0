/**
 * The OpenAPI 3.1 document (issue 14, item 5): served at GET /api/openapi.json, built from the routes'
 * own schemas, and held equal to docs/api.md's call table.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { API_ERROR_CODES } from '../../contract/api';
import { assembleApi, type AssembledApi } from '../../server/assemble';

interface Operation {
  operationId?: string;
  summary?: string;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
}
interface OpenApiDocument {
  openapi: string;
  servers?: Array<{ url: string }>;
  security?: unknown[];
  paths: Record<string, Record<string, Operation>>;
}

/** Every call of the API with the body fields it takes (the local checkout and dev routes included). */
const CALLS: Record<string, string[] | null> = {
  'POST /auth/google/signin': ['idToken'],
  'POST /auth/apple/signin': ['identityToken', 'userIdentifier', 'email', 'fullName'],
  'POST /auth/verify': ['sessionToken'],
  'POST /auth/signout': ['sessionToken'],
  'POST /auth/handoff': ['sessionToken', 'codeChallenge'],
  'POST /auth/handoff/redeem': ['handoffToken', 'codeVerifier', 'deviceName'],
  'POST /auth/devices': ['sessionToken'],
  'POST /auth/devices/revoke': ['sessionToken', 'deviceId'],
  'DELETE /auth/delete-account': ['email', 'userId', 'sessionToken'],
  'POST /subscription/create-checkout': ['idToken', 'email'],
  'POST /subscription/cancel': ['idToken'],
  'POST /subscription/resume': ['idToken'],
  'POST /subscription/refund': ['idToken'],
  'POST /billing/history': ['sessionToken'],
  'POST /account/activity': ['cursor', 'limit', 'sessionToken'],
  'POST /account/export': ['idToken'],
  'POST /staff/search': ['idToken', 'query'],
  'POST /staff/customer': ['idToken', 'userId'],
  'POST /staff/servers': ['idToken'],
  'POST /staff/actions': ['idToken', 'userId', 'action', 'reason', 'deviceId'],
  'GET /billing/receipts/:id': null,
  'POST /billing/portal': ['idToken'],
  'GET /billing/portal/local/:id': null,
  'POST /billing/portal/local/:id/update': null,
  'POST /webhooks/payments': null,
  'GET /health': null,
  'GET /live': null,
  'GET /ready': null,
  'GET /checkout/local/:id': null,
  'POST /checkout/local/:id/pay': null,
  'POST /checkout/local/:id/cancel': null,
  'POST /dev/billing-clock/advance': ['by', 'decline'],
  'GET /vpn/servers': null,
  'POST /vpn/devices': ['sessionToken', 'name', 'publicKey', 'idToken'],
  'POST /vpn/devices/rotate': ['sessionToken', 'deviceId', 'publicKey', 'idToken'],
  'GET /vpn/servers/status': null,
  'POST /vpn/devices/removal-status': ['sessionToken', 'version'],
  'GET /relay/v1/peers': null,
  'GET /relay/v1/settings': null,
  'POST /relay/v1/health': ['versionApplied', 'peers', 'activePeers', 'uptimeSeconds', 'agentVersion'],
};

/** `METHOD /path` (under /api, `:param`) of every operation in the document. */
function documentedCalls(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map(
      (method) => `${method.toUpperCase()} ${path.replace(/^\/api/, '').replace(/\{(\w+)\}/g, ':$1')}`,
    ),
  );
}

/**
 * A built website as the prerender step leaves it (dist/index.html, dist/pages/ and its routes.json): its
 * pages are routes of their own, declared without a schema, beside the API's.
 */
function writeBuiltSite(dir: string): void {
  mkdirSync(join(dir, 'pages'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Veil VPN</title><div id="root"></div>');
  for (const file of ['home.html', 'terms.html', '404.html']) writeFileSync(join(dir, 'pages', file), `<!doctype html><title>${file}</title>`);
  writeFileSync(
    join(dir, 'pages', 'routes.json'),
    JSON.stringify({ pages: { '/': 'home.html', '/terms': 'terms.html' }, notFound: '404.html', browserOnly: ['/account', '/subscribe'] }),
  );
}

let api: AssembledApi;
let siteDir: string;
let document: OpenApiDocument;
beforeAll(async () => {
  // Exactly as server/main.ts builds it under `npm start`: its environment, its database, the built site.
  siteDir = mkdtempSync(join(tmpdir(), 'veil-openapi-site-'));
  writeBuiltSite(join(siteDir, 'dist'));
  api = await assembleApi({
    STATIC_DIR: join(siteDir, 'dist'),
    DATA_DIR: join(siteDir, 'data'),
    PUBLIC_URL: 'http://veil.test',
    // What `npm start` runs the API with (scripts/start.mjs).
    NODE_ENV: 'development',
    FIREBASE_AUTH_EMULATOR_HOST: inject('authEmulatorHost'),
    MAIL: 'off',
    LOG_LEVEL: 'silent',
  });
  const page = await api.app.inject({ method: 'GET', url: '/terms' });
  expect(page.statusCode, 'the built site is served').toBe(200);
  const response = await api.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  document = response.json();
});
afterAll(async () => {
  await api?.app.close();
  await api?.database.close();
  if (siteDir) rmSync(siteDir, { recursive: true, force: true });
});

describe('GET /api/openapi.json', () => {
  test('is an OpenAPI 3.1 document with every call of the API and nothing else', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(documentedCalls(document).sort()).toEqual(Object.keys(CALLS).sort());
  });

  test('the relay calls and the servers status are described: expiresAt, since and wait, settings, health, removal status (issue 47, 48)', () => {
    const text = (value: unknown) => JSON.stringify(value);
    const peers = document.paths['/api/relay/v1/peers']!.get!;
    expect(text(peers)).toContain('"expiresAt"');
    expect(text(peers)).toContain('"wait"');
    expect(text(peers)).toContain('"since"');
    expect(text(document.paths['/api/relay/v1/settings']!.get!)).toContain('"healthIntervalSeconds"');
    expect(text(document.paths['/api/relay/v1/health']!.post!)).toContain('"versionApplied"');
    expect(text(document.paths['/api/vpn/devices/removal-status']!.post!)).toContain('"lagging"');
    expect(text(document.paths['/api/auth/devices/revoke']!.post!)).toContain('"peerListVersion"');
    expect(text(document.paths['/api/vpn/servers/status']!.get!)).toContain('"uptime90d"');
  });

  test('each call declares its request body schema with the contract fields, required ones listed', () => {
    for (const [call, fields] of Object.entries(CALLS)) {
      if (!fields) continue;
      const [method, path] = call.split(' ') as [string, string];
      const operation = document.paths[`/api${path}`]![method.toLowerCase()]!;
      const schema = operation.requestBody?.content['application/json']?.schema;
      expect(Object.keys(schema?.properties ?? {}).sort(), call).toEqual([...fields].sort());
      expect(schema?.required?.length, call).toBeGreaterThan(0);
    }
  });

  test('each call declares its success answer, and every failure as {success:false,error,code} with the contract codes', () => {
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method} ${path}`;
        expect(operation.responses['200'] ?? operation.responses['303'] ?? operation.responses['200'], where).toBeDefined();
        const failure = operation.responses['4XX'] ?? operation.responses['4xx'];
        const schema = failure?.content?.['application/json']?.schema as
          | { properties: { success: unknown; error: unknown; code: { enum: string[] } } }
          | undefined;
        expect(schema?.properties.code.enum, where).toEqual([...API_ERROR_CODES]);
      }
    }
  });
});

describe('a document clients can be generated from (issue 24, item 6)', () => {
  const root = join(import.meta.dirname, '../..');
  const operations = () => Object.values(document.paths).flatMap((byMethod) => Object.values(byMethod));

  test('every operation has its own operationId and a summary; servers and security are declared', () => {
    const ids = operations().map((operation) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)), ids.join(', ')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.paths['/api/auth/google/signin']?.post?.operationId).toBe('authGoogleSignin');
    expect(document.paths['/api/auth/delete-account']?.delete?.operationId).toBe('authDeleteAccount');
    for (const operation of operations()) expect(operation.summary, operation.operationId).toBeTruthy();
    expect(document.servers).toEqual([expect.objectContaining({ url: 'http://veil.test' })]);
    expect(document.security).toEqual([]);
  });

  test("Redocly's recommended rules find no error", () => {
    const dir = mkdtempSync(join(tmpdir(), 'veil-openapi-'));
    try {
      writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
      const run = spawnSync(process.execPath, [join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', '--format=json', 'openapi.json'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      });
      const problems = (JSON.parse(run.stdout) as { problems: Array<{ severity: string; ruleId: string; message: string }> }).problems;
      expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test('openapi-typescript generates types that a client call compiles against, and a wrong call does not', async () => {
    const dir = mkdtempSync(join(root, 'node_modules/.veil-openapi-client-'));
    try {
      writeFileSync(join(dir, 'api.d.ts'), await openapiTS(document as never));
      const client = (body: string) =>
        [
          "import type { paths } from './api';",
          "type VerifyBody = paths['/api/auth/verify']['post']['requestBody']['content']['application/json'];",
          "type VerifyAnswer = paths['/api/auth/verify']['post']['responses']['200']['content']['application/json'];",
          'export async function verify(): Promise<VerifyAnswer> {',
          `  const body: VerifyBody = ${body};`,
          "  const response = await fetch('/api/auth/verify', { method: 'POST', body: JSON.stringify(body) });",
          '  return (await response.json()) as VerifyAnswer;',
          '}',
          '',
        ].join('\n');
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2023', 'DOM'], types: [] }, include: ['*.ts'] }));
      const compile = () => spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });

      writeFileSync(join(dir, 'client.ts'), client("{ sessionToken: 'token' }"));
      const good = compile();
      expect(good.stdout + good.stderr).toBe('');
      expect(good.status).toBe(0);

      writeFileSync(join(dir, 'client.ts'), client("{ session: 'token' }"));
      const wrong = compile();
      expect(wrong.status).not.toBe(0);
      expect(wrong.stdout).toMatch(/session/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('docs/api.md', () => {
  const doc = readFileSync(join(import.meta.dirname, '../../docs/api.md'), 'utf8');

  test("its call table lists exactly the document's calls", () => {
    const tableCalls = [...doc.matchAll(/^\| `((?:GET|POST|DELETE|PUT|PATCH) [^`]+)` \|/gm)].map((match) => match[1]);
    expect(tableCalls.sort()).toEqual(documentedCalls(document).sort());
  });

  test('names every error code of the contract', () => {
    for (const code of API_ERROR_CODES) expect(doc, code).toContain(`\`${code}\``);
  });
});
