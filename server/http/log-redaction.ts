/**
 * What the request log may say (issue 10 §7, issue 31 item 3): the method and the route pattern
 * (`/api/billing/receipts/:id`), never the raw URL with its ids or query string; a request no route
 * matched is logged by its path with every id, address and token replaced (server/observability/redaction.ts).
 * No client address, user agent or header is logged. Errors go through the same redaction.
 */
import type { FastifyRequest } from 'fastify';
import { redactError, redactText } from '../observability/redaction.ts';

/** The route pattern a request matched, or null (no route, or the website's catch-all). */
function routePattern(request: FastifyRequest): string | null {
  const pattern = request.routeOptions?.url;
  return pattern && !pattern.includes('*') ? pattern : null;
}

/** The path as it may be logged. */
function loggedUrl(request: FastifyRequest): string {
  return routePattern(request) ?? redactText(request.url.split('?')[0]!.split('#')[0]!);
}

export const logSerializers = {
  req: (request: FastifyRequest) => ({ method: request.method, url: loggedUrl(request) }),
  err: redactError,
};

/** pino's hook on every log call: the message text is redacted too (a message may quote an error's). */
export const redactLogMessages = {
  logMethod(this: unknown, args: unknown[], method: (...args: unknown[]) => void) {
    method.apply(this, args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg)));
  },
};
