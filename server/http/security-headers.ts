/**
 * The security headers of every answer, computed once at start-up for each kind of answer (issue 32):
 *
 * - documents and API answers: every header helmet sets (the CSP of server/http/csp.ts, framing, referrer,
 *   opener and cross-domain policies, HSTS, nosniff, …);
 * - static files (the build's hashed assets, the favicon): only what a browser needs to load a script, a
 *   stylesheet or an image safely: `X-Content-Type-Options: nosniff` (no script run from a mislabelled
 *   file), `Cross-Origin-Resource-Policy` (no other site reads them) and HSTS. A CSP, framing or referrer
 *   policy on a script is never read by a browser; it was about 1 KB per asset answer.
 *
 * Helmet stays the source of truth of the headers and their values: its middleware runs once against a
 * recording answer, not per request (it rebuilt and re-parsed the CSP on every request, about 6% of the
 * API's CPU on the bare route).
 */
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.ts';
import { contentSecurityPolicy } from './csp.ts';

type HeaderSet = Readonly<Record<string, string>>;

/** The headers a document-only policy is about: a browser reads them on a page, never on a script. */
const ASSET_HEADERS = ['x-content-type-options', 'cross-origin-resource-policy', 'strict-transport-security'];

/** What helmet's middleware sets, recorded once (header names lowercased, as HTTP/2 sends them). */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as never, recorder as never, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

function securityHeaders(config: Config): { document: HeaderSet; asset: HeaderSet } {
  const document = helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    // Firebase's sign-in popup talks back to its opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
  });
  const asset = Object.fromEntries(Object.entries(document).filter(([name]) => ASSET_HEADERS.includes(name)));
  return { document: Object.freeze(document), asset: Object.freeze(asset) };
}

/**
 * Sets the headers of the answer's kind on every request: a static file's route (@fastify/static marks
 * each with `config.file`) gets the asset set, anything else (pages, API answers, 404s) the document set.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const { document, asset } = securityHeaders(config);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers((request.routeOptions.config as { file?: string }).file === undefined ? document : asset);
    done();
  });
}
