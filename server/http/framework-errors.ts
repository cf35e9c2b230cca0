/**
 * Every failure answered in the API's one error shape `{success:false,error,code}` (contract/api.ts):
 * our own ApiFailures, Fastify's refusals (before or while a route runs), a call that does not exist, and
 * requests Node's HTTP parser refuses, instead of Fastify's `{statusCode,error,message}` or a stack trace.
 */
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiErrorCode, ErrorResponse } from '../../contract/api.ts';
import { ApiFailure, failures, isDatabaseUnavailable } from '../domain/errors.ts';
import type { ProductMetrics } from '../observability/metrics.ts';
import { RateLimited } from './rate-limits.ts';

function failure(code: ApiErrorCode, error: string): ErrorResponse {
  return { success: false, error, code };
}

/**
 * Fastify's own refusals of a request, by status and code (fastify/lib/errors.js). Only its JSON parser's
 * two codes mean the body is not JSON; any other 4xx (a body shorter or longer than its Content-Length, a
 * refusal from a plugin) is a request we could not take as sent, said without guessing why.
 */
function frameworkRefusal(error: FastifyError, status: number): ErrorResponse {
  if (status === 413) return failure('body_too_large', 'Request body is too large.');
  if (status === 415) return failure('unsupported_media_type', 'Unsupported content type: send JSON.');
  switch (error.code) {
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return failure('validation_failed', 'Invalid request: a JSON object body is required.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return failure('validation_failed', 'Invalid request: the body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return failure('bad_http_request', 'Invalid request: the body does not match its Content-Length header.');
    default:
      return failure('bad_http_request', `Invalid request: it could not be accepted as sent (HTTP ${status}).`);
  }
}

const BROKEN_STREAM_CODES = /^(HPE_|ECONNRESET$|ERR_STREAM_PREMATURE_CLOSE$|ECONNABORTED$|ABORT_ERR$)/;

/** The code of a broken request stream, on the error or any error that caused it; null for any other. */
function brokenStreamCode(error: unknown): string | null {
  for (let cause = error, depth = 0; cause instanceof Object && depth < 5; cause = (cause as { cause?: unknown }).cause, depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && BROKEN_STREAM_CODES.test(code)) return code;
  }
  return null;
}

/**
 * Whether the request's own stream broke before it was whole (the parser refused its framing, the client
 * went away): whatever failed after that failed because of it, so it is the client's doing, not ours. One
 * packet with broken chunked framing destroys the socket while the request's hooks still run; what they
 * then meet (a destroyed socket, a body that never ends) is no bug of ours (issue 34).
 */
function requestStreamBroke(request: FastifyRequest): boolean {
  const raw = request.raw as { aborted?: boolean; complete?: boolean; destroyed?: boolean; socket?: { destroyed?: boolean } | null };
  return raw.aborted === true || (raw.complete === false && (raw.destroyed === true || raw.socket?.destroyed === true));
}

/** The app's error handler: an ApiFailure as it says, Fastify's 4xx in words, anything else a logged 500. */
export function apiErrorHandler(
  error: FastifyError | ApiFailure,
  request: FastifyRequest,
  reply: FastifyReply,
  metrics?: Pick<ProductMetrics, 'databaseUnavailable' | 'malformedRequests'>,
) {
  const code = brokenStreamCode(error);
  if (code !== null || requestStreamBroke(request)) {
    // The body's stream broke (bad chunked framing, the client went away): the client's doing, so one
    // info line without a stack and a count, as for the parser's own refusals (clientErrorHandler).
    metrics?.malformedRequests.inc({ kind: 'broken_body' });
    request.log.info({ code: code ?? 'aborted' }, 'request body stream broke');
    return reply.code(400).send(failure('bad_http_request', 'Invalid request: malformed HTTP.'));
  }
  if (error instanceof ApiFailure) {
    // A provider's fault behind a 502: the customer gets the message, the log gets the cause.
    if (error.cause !== undefined) request.log.error({ err: error.cause }, error.message);
    if (error instanceof RateLimited) reply.header('retry-after', String(error.retryAfterSeconds));
    return reply.code(error.statusCode).send(failure(error.code, error.message));
  }
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) return reply.code(status).send(frameworkRefusal(error, status));
  if (isDatabaseUnavailable(error)) {
    // Weather, not a bug: one line without the stack; /api/ready says the same to the load balancer.
    // The driver's own message, never drizzle's wrapper (which quotes the statement and its parameters).
    let cause: unknown = error;
    while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
    request.log.warn(`database unavailable: ${cause instanceof Error ? cause.message : 'unknown'}`);
    metrics?.databaseUnavailable.inc();
    const unavailable = failures.databaseUnavailable(error);
    return reply.code(503).header('retry-after', '5').send(failure(unavailable.code, unavailable.message));
  }
  request.log.error({ err: error }, 'unexpected failure');
  return reply.code(500).send(failure('internal_error', 'Something went wrong on our side. Please try again.'));
}

/** A call that does not exist (method and path). */
export function noSuchCall(request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send(failure('no_such_call', `No such call: ${request.method} ${request.url.split('?')[0]}`));
}

/** A URL that cannot be decoded (`/api/x%zz`), a too long path parameter. */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const message = error.code === 'FST_ERR_BAD_URL' ? 'Invalid request: the URL is not valid.' : 'Invalid request.';
  return reply.code(400).send(failure('validation_failed', message));
}

/**
 * A request Node's HTTP parser refuses (broken framing, headers too large, too slow). Any client can
 * send these at will: one info line without a stack, and a count by kind (issue 23), never an error.
 */
export function clientErrorHandler(
  error: Error & { code?: string },
  socket: Socket,
  log?: FastifyBaseLogger,
  metrics?: Pick<ProductMetrics, 'malformedRequests'> | null,
) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text, message, kind] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'The request took too long.', 'timeout']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The request headers are too large.', 'headers_too_large']
        : [400, 'Bad Request', 'Invalid request: malformed HTTP.', 'malformed'];
  metrics?.malformedRequests.inc({ kind });
  log?.info({ code: error.code, kind }, `HTTP request refused before routing: ${kind} (${status})`);
  const body = JSON.stringify(failure('bad_http_request', message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
