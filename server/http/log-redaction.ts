/**
 * What the request log may say (issue 10 §7): the method and the path without its query string (hand-off
 * links) or local checkout id (it opens someone's checkout), and errors without the SQL parameters a
 * failed query carries (e-mail, names, token hashes): only the error's type, code and redacted message.
 */
import type { FastifyRequest } from 'fastify';

/** The path as it may be logged. */
function redactUrl(url: string): string {
  // Most paths have neither: no split, no regular expression (this runs for every request's log line).
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path.includes('/checkout/local/') ? path.replace(/(\/checkout\/local\/)[^/]+/, '$1[redacted]') : path;
}

/** Drops the "params: …" part drizzle writes into a failed query's message and stack. */
function redactSqlParameters(text: string): string {
  return text.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/, '\nparams: [redacted]');
}

interface LoggedError {
  [key: string]: unknown;
  type: string;
  code?: string;
  message: string;
  stack: string;
  cause?: LoggedError;
}

/**
 * Only name, code, message and stack, never the error's other properties: a query error carries `params`,
 * a PostgreSQL error `detail` ("Key (email)=(…) already exists").
 */
function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '[not an Error]', stack: '' };
  const code = (error as { code?: unknown }).code;
  const logged: LoggedError = {
    type: error.name,
    ...(typeof code === 'string' ? { code } : {}),
    message: redactSqlParameters(error.message),
    stack: redactSqlParameters(error.stack ?? ''),
  };
  if (error.cause !== undefined && depth < 3) logged.cause = serializeError(error.cause, depth + 1);
  return logged;
}

export const logSerializers = {
  req: (request: FastifyRequest) => ({ method: request.method, url: redactUrl(request.url) }),
  err: serializeError,
};
