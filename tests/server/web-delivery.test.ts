/**
 * How the API delivers the built website (issue 12): each public page prerendered, with its own title and
 * the runtime configuration, readable without running any script; static files and pages compressed with
 * brotli or gzip when the request accepts them, identity otherwise; JSON answers over 1 KB compressed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { ensureSpaBuilt } from '../../scripts/lib/spa-build.mjs';
import { mintProviderUser } from '../support/auth-emulator';
import { call, createTestApi, type TestApi } from '../support/server-harness';

const root = process.cwd();
const dist = join(root, 'dist');
const emulatorHost = inject('authEmulatorHost');

const PUBLIC_PAGES = [
  { path: '/', title: 'Veil VPN: Secure Your Digital Freedom', texts: ['Secure Your Digital Freedom', 'Ultimate Privacy Protection', 'Lightning Fast'] },
  { path: '/support', title: 'Support | Veil VPN', texts: ['Support Center', 'Setup & Installation', 'Technical Support'] },
  { path: '/download', title: 'Download | Veil VPN', texts: ['Download Veil VPN', 'macOS 11 or later', 'Windows 10 or later', 'iOS 14 or later', 'Android 8 or later', 'about 50 MB'] },
  { path: '/privacy', title: 'Privacy Policy | Veil VPN', texts: ['Privacy Policy', 'October 9, 2025'] },
  { path: '/terms', title: 'Terms of Service | Veil VPN', texts: ['Terms of Service', 'October 9, 2025'] },
  { path: '/signin', title: 'Sign In | Veil VPN', texts: ['Sign in to Veil VPN', 'Continue with Google', 'Continue with Apple'] },
  { path: '/success', title: 'Payment Successful | Veil VPN', texts: ['Welcome to Veil VPN Premium!', "What's Next"] },
  { path: '/cancel', title: 'Payment Cancelled | Veil VPN', texts: ['Payment Cancelled', '$100 per year, about $8.34 per month'] },
  { path: '/status', title: 'Server Status | Veil VPN', texts: ['Server status', 'Loading the server status…'] },
  // A soft 404 answers HTTP 404 with the same page (issue 22 item 12).
  { path: '/no-such-page', title: 'Page Not Found | Veil VPN', texts: ['404', 'Oops! Page not found'], status: 404 },
];

/** What a reader without scripts gets: the text of the page's markup. */
function visibleText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1]?.replace(/&amp;/g, '&');

function decode(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

let api: TestApi;

beforeAll(async () => {
  await ensureSpaBuilt(root, () => {});
  api = await createTestApi({ driver: 'pglite', emulatorHost, env: { STATIC_DIR: dist } });
}, 180_000);
afterAll(() => api?.close());

const get = (url: string, acceptEncoding?: string) =>
  api.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

describe('prerendered public pages', () => {
  for (const page of PUBLIC_PAGES) {
    test(`${page.path} arrives with its content and its own title, before any script runs`, async () => {
      const response = await get(page.path);
      expect(response.statusCode).toBe(page.status ?? 200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      const html = response.body;
      expect(titleOf(html)).toBe(page.title);
      const text = visibleText(html.slice(html.indexOf('<body')));
      for (const expected of page.texts) expect(text, page.path).toContain(expected);
      // The runtime configuration is written in, as in the empty shell.
      expect(html).toContain('<script id="client-config" type="application/json">');
    });
  }

  test('pages differ in their meta description', async () => {
    const descriptions = await Promise.all(
      PUBLIC_PAGES.map(async (page) => /<meta name="description" content="([^"]*)"/.exec((await get(page.path)).body)?.[1]),
    );
    expect(new Set(descriptions).size).toBe(PUBLIC_PAGES.length);
  });

  test('the pages that depend on the session get the empty shell, which the browser renders', async () => {
    for (const path of ['/subscribe']) {
      const response = await get(path);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root"></div>');
      expect(response.body).toContain('<script id="client-config" type="application/json">');
    }
  });

  // Issue 22 item 6 (it used to get the empty shell above): its header and a loading state, before any script.
  test('/account gets its prerendered shell: its title, the header, "Loading" and the footer', async () => {
    const response = await get('/account');
    expect(response.statusCode).toBe(200);
    expect(titleOf(response.body)).toBe('My Account | Veil VPN');
    expect(response.body).toContain('<div id="root" data-shell>');
    expect(response.body).toMatch(/<header[\s\S]*role="status"[\s\S]*Loading[\s\S]*<footer/);
    expect(response.body).toContain('<script id="client-config" type="application/json">');
  });

  // Issue 45 item 9: the console's document says noindex before any script runs; the public pages do not.
  test('/staff answers with X-Robots-Tag: noindex; a public page and /account without it', async () => {
    for (const path of ['/staff', '/staff/']) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(200);
      expect(response.headers['x-robots-tag'], path).toMatch(/\bnoindex\b/);
    }
    for (const path of ['/', '/support', '/account', '/subscribe']) expect((await get(path)).headers['x-robots-tag'], path).toBeUndefined();
  });

  test('the header shows no "Sign In" before the session is known: its account area is a hidden placeholder', async () => {
    const html = (await get('/')).body;
    const actions = /<div class="[^"]*accountPlaceholder[^"]*" aria-hidden="true" inert="">/.exec(html);
    expect(actions).not.toBeNull();
  });
});

describe('the API beside the website', () => {
  test('an unknown /api call is a JSON 404 with its code, not the website\'s 404 page', async () => {
    expect(await call(api.app, 'GET', '/api/nope')).toMatchObject({ status: 404, body: { success: false, code: 'no_such_call' } });
    expect(await call(api.app, 'POST', '/api/auth/nope', {})).toMatchObject({ status: 404, body: { code: 'no_such_call' } });
  });
});

describe('compression', () => {
  const script = () => {
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    return /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
  };

  test('a script comes as brotli or gzip when the request accepts it, as sent otherwise', async () => {
    const path = script();
    const original = readFileSync(join(dist, path), 'utf8');
    const cases = [
      { accept: 'gzip, deflate, br', encoding: 'br' },
      { accept: 'gzip', encoding: 'gzip' },
      { accept: 'br;q=0, gzip;q=0.8', encoding: 'gzip' },
      { accept: undefined, encoding: undefined },
      { accept: 'identity', encoding: undefined },
    ];
    for (const { accept, encoding } of cases) {
      const response = await get(path, accept);
      expect(response.statusCode, `${accept}`).toBe(200);
      expect(response.headers['content-encoding'], `${accept}`).toBe(encoding);
      expect(response.headers.vary, `${accept}`).toMatch(/accept-encoding/i);
      expect(decode(response.rawPayload, encoding), `${accept}`).toBe(original);
    }
    expect((await get(path, 'br')).rawPayload.length).toBeLessThan(original.length / 2);
  });

  test('a prerendered page comes as brotli or gzip when asked, with the configuration in it, identity otherwise', async () => {
    const plain = await get('/support');
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const encoding of ['br', 'gzip']) {
      const response = await get('/support', encoding);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(decode(response.rawPayload, encoding)).toBe(plain.body);
    }
    const shell = await get('/subscribe', 'br');
    expect(shell.headers['content-encoding']).toBe('br');
    expect(decode(shell.rawPayload, 'br')).toContain('<div id="root"></div>');
  });

  test('JSON answers over 1 KB are compressed; small ones are not', async () => {
    // A customer with six desktop devices: their list is well over 1 KB.
    const minted = await mintProviderUser(`http://${emulatorHost}`, { email: `devices.${Date.now()}@example.com`, provider: 'google.com', name: 'Ada' });
    const { body: signedIn } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
    const sessionToken = signedIn.sessionToken as string;
    for (let device = 1; device <= 6; device += 1) {
      const { body: handoff } = await call(api.app, 'POST', '/api/auth/handoff', { sessionToken });
      const redeemed = await call(api.app, 'POST', '/api/auth/handoff/redeem', {
        handoffToken: handoff.handoffToken,
        deviceName: `Ada's workstation number ${device} in the north-east office, second floor, by the window`,
      });
      expect(redeemed.status).toBe(200);
    }
    const devices = (acceptEncoding?: string) =>
      api.app.inject({
        method: 'POST',
        url: '/api/auth/devices',
        payload: { sessionToken },
        headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
      });
    const plain = await devices();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const compressed = await devices('br, gzip');
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decode(compressed.rawPayload, 'br'))).toEqual(plain.json());

    const small = await get('/api/live', 'br, gzip');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ ok: true });
  });
});

describe('security headers by kind of answer (issue 32)', () => {
  /** Read by a browser on a page only: on a script or stylesheet they are bytes for nothing. */
  const DOCUMENT_ONLY = [
    'content-security-policy',
    'x-frame-options',
    'referrer-policy',
    'x-permitted-cross-domain-policies',
    'cross-origin-opener-policy',
    'origin-agent-cluster',
    'x-dns-prefetch-control',
    'x-download-options',
    'x-xss-protection',
  ];
  const assets = () => {
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    return {
      script: /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!,
      stylesheet: /href="(\/assets\/[^"]+\.css)"/.exec(html)![1]!,
    };
  };

  test('a hashed script and stylesheet carry asset headers only: type, length, immutable caching, ETag, nosniff', async () => {
    const { script, stylesheet } = assets();
    for (const [path, type] of [
      [script, /^(text|application)\/javascript/],
      [stylesheet, /^text\/css/],
    ] as const) {
      for (const accept of [undefined, 'br, gzip']) {
        const response = await get(path, accept);
        expect(response.statusCode, path).toBe(200);
        expect(response.headers['content-type'], path).toMatch(type);
        expect(Number(response.headers['content-length']), path).toBe(response.rawPayload.length);
        expect(response.headers['cache-control'], path).toBe('public, max-age=31536000, immutable');
        expect(response.headers.etag, path).toBeTruthy();
        expect(response.headers['x-content-type-options'], path).toBe('nosniff');
        expect(response.headers['cross-origin-resource-policy'], path).toBe('same-origin');
        for (const header of DOCUMENT_ONLY) expect(response.headers[header], `${header} on ${path}`).toBeUndefined();
      }
    }
  });

  test('every file of the build goes out with its length, however small, compressed or not', async () => {
    // A file without a compressed sibling would be compressed per request, as a stream without a length.
    const files = readdirSync(join(dist, 'assets')).filter((name) => /\.(js|css)$/.test(name));
    expect(files.some((name) => statSync(join(dist, 'assets', name)).size < 1024)).toBe(true);
    for (const name of files) {
      for (const accept of [undefined, 'br, gzip']) {
        const response = await get(`/assets/${name}`, accept);
        expect(response.statusCode, name).toBe(200);
        expect(Number(response.headers['content-length']), `${name} (${accept ?? 'identity'})`).toBe(response.rawPayload.length);
      }
    }
  });

  test('pages, the empty shell, the 404 page and API answers carry every document header', async () => {
    for (const path of ['/', '/support', '/subscribe', '/no-such-page', '/api/live', '/api/nope']) {
      const response = await get(path, 'br');
      for (const header of DOCUMENT_ONLY) expect(response.headers[header], `${header} on ${path}`).toBeTruthy();
      expect(response.headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
      expect(response.headers['cross-origin-opener-policy'], path).toBe('same-origin-allow-popups');
      expect(response.headers['x-frame-options'], path).toBe('SAMEORIGIN');
      expect(response.headers['referrer-policy'], path).toBe('no-referrer');
      expect(response.headers['x-content-type-options'], path).toBe('nosniff');
    }
  });
});
