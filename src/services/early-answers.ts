/**
 * The API answers a signed-in page asks for first, asked for by the entry script (src/boot.ts) as the page
 * starts, instead of after the app's code has downloaded and started (issue 32 item 4). On a slow phone
 * that code is ~50 chunks; the session's check (`auth/verify`) and the account page's lists used to start
 * only after all of them, and the page waited for both one after the other. Now they travel together.
 *
 * The app takes an answer through src/services/api-client.ts `call`: the first call of a path with the same
 * session token and no other field receives the answer already on its way, once; every later call (a
 * retry, a refresh after a change) asks the API again. An answer taken after FRESH_FOR_MS is not used, so a
 * tab left on the shell never shows what it fetched long ago. Nothing here reads or judges an answer: the
 * caller parses it as it parses its own, failures included.
 *
 * Kept free of the app's libraries: the entry script imports it before the first paint.
 */
import { readStorage, STORAGE_KEYS } from './storage-keys';

/** The stored session token, or null (read without src/services/storage.ts, which rides in the app's chunk). */
export function storedSessionToken(): string | null {
  return readStorage(() => window.localStorage, STORAGE_KEYS.sessionToken);
}

/** The calls each page makes first, with the stored session token as the whole body. */
const FIRST_CALLS: Readonly<Record<string, readonly string[]>> = {
  '/account': ['auth/verify', 'auth/devices', 'billing/history', 'account/activity'],
  '/subscribe': ['auth/verify'],
};

/** As long as the app's own calls wait (src/services/api-client.ts). */
const TIMEOUT_MS = 20_000;
/** Older than this, an early answer is not used: the app asks again. */
export const FRESH_FOR_MS = 30_000;

interface EarlyAnswer {
  path: string;
  sessionToken: string;
  askedAt: number;
  response: Promise<Response>;
}

const waiting: EarlyAnswer[] = [];

/** Asks for the first answers `pathname`'s page needs, when there is a stored session to ask with. */
export function askFirstCallsEarly(pathname: string, sessionToken: string | null): void {
  if (!sessionToken) return;
  for (const path of FIRST_CALLS[pathname] ?? []) {
    const response = fetch(`/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ sessionToken }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    // A failure is the taker's to handle (the API unreachable); never an unhandled rejection meanwhile.
    response.catch(() => {});
    waiting.push({ path, sessionToken, askedAt: performance.now(), response });
  }
}

/** The early answer for this call, once, or null: the caller asks the API itself. */
export function takeEarlyAnswer(path: string, body: unknown): Promise<Response> | null {
  const sessionToken = sessionTokenAlone(body);
  if (sessionToken === null) return null;
  const index = waiting.findIndex((answer) => answer.path === path && answer.sessionToken === sessionToken);
  if (index < 0) return null;
  const [answer] = waiting.splice(index, 1);
  return performance.now() - answer!.askedAt <= FRESH_FOR_MS ? answer!.response : null;
}

/** The token of a body that is `{ sessionToken }` and nothing else; null for any other body. */
function sessionTokenAlone(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const keys = Object.keys(body);
  const { sessionToken } = body as { sessionToken?: unknown };
  return keys.length === 1 && typeof sessionToken === 'string' ? sessionToken : null;
}
