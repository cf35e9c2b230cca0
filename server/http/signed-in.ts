/**
 * Calls made with a session token in the body (hand-off, devices, deletion): the session is looked up once
 * per request, in a preHandler, after Fastify has validated the body (a bad body is a 400 before any
 * lookup). That one lookup both proves the account for its per-account rate limit and is the session the
 * handler acts for, so the two can never disagree and the database is asked once.
 */
import type { FastifyRequest } from 'fastify';
import type { DomainCalls } from '../domain/bound.ts';
import type { SignedIn } from '../domain/accounts/sessions.ts';
import { isAccountFamily, type RateLimits } from './rate-limits.ts';

/** Kept by request in this module rather than as a request decoration: only the preHandler sets it. */
const signedInBy = new WeakMap<FastifyRequest, SignedIn>();

/**
 * A preHandler authenticating the body's session token: a 401 `session_invalid` unless it is live, then
 * the account's limit (a 429), and only then is the session marked used. The account is counted in the
 * family the route names for its per-address limit (`config.rateLimitFamily`), so a route says it once.
 */
export function sessionPreHandler(authenticate: DomainCalls['sessions']['authenticate'], limits: RateLimits) {
  return async (request: FastifyRequest) => {
    const family = request.routeOptions.config.rateLimitFamily;
    // A signed-in route naming a family that is not counted per account is a programming error: a 500.
    if (!isAccountFamily(family)) throw new Error(`${request.method} ${request.routeOptions.url ?? ''} names no per-account rate-limit family`);
    // The route's schema has required a string sessionToken before any preHandler runs.
    const { sessionToken } = request.body as { sessionToken: string };
    const admit = (userId: string) => limits.forAccount(family, userId);
    signedInBy.set(request, await authenticate(sessionToken, { admit }));
  };
}

/** The session `sessionPreHandler` authenticated for this request. */
export function signedIn(request: FastifyRequest): SignedIn {
  const found = signedInBy.get(request);
  // A route calling this without the preHandler is a programming error, never a caller's: a 500.
  if (!found) throw new Error(`${request.method} ${request.routeOptions.url ?? ''} has no session preHandler`);
  return found;
}
