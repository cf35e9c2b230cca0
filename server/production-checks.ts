/**
 * Production fails closed (issue 10 §1, design §7): with NODE_ENV=production the API refuses to start
 * when its configuration would let a forged identity or a forged payment in, or let a client pick the
 * address the rate limits count (TRUST_PROXY=true). Every such refusal lives here, not in config.ts (which
 * only parses). Each is one line naming the variable, so the operator knows what to fix. A NODE_ENV
 * other than production, development, test or unset is refused first (issue 23): a misspelt
 * "Production" would otherwise skip every check.
 */

import { parseDuration, parseRelayTokens } from './config.ts';
import { loadVpnCatalogue } from './vpn/catalogue.ts';

type Env = Record<string, string | undefined>;

/** The shortest relay token production accepts: a guessable token would let anyone read every customer's key. */
const RELAY_TOKEN_MIN_LENGTH = 32;

/** A bearer token shorter than this could be guessed by a patient scraper of GET /api/metrics. */
const METRICS_TOKEN_MIN_LENGTH = 32;

/** The least entropy a metrics or relay token may have in production (issue 46, item 13). */
const TOKEN_MIN_BITS = 128;

/** The character classes a token is counted against, and how many characters each holds. */
const CHARACTER_CLASSES: Array<[RegExp, number]> = [
  [/[a-z]/, 26],
  [/[A-Z]/, 26],
  [/[0-9]/, 10],
  // Printable ASCII punctuation and the space.
  [/[ -/:-@[-`{-~]/, 33],
];

/**
 * An upper estimate of a token's entropy in bits: its length times log2 of the alphabet it could have been
 * drawn from, that alphabet being the smaller of the character classes it uses (lower case, upper case,
 * digits, punctuation; anything else counts 128 more) and the number of distinct characters in it. So 32
 * spaces or one letter repeated is 0 bits, `openssl rand -hex 16` (32 hex digits) 128, `-hex 32` 256, and
 * `openssl rand -base64 32` about 200.
 */
export function tokenEntropyBits(token: string): number {
  const characters = [...token];
  let pool = 0;
  for (const [pattern, size] of CHARACTER_CLASSES) if (characters.some((character) => pattern.test(character))) pool += size;
  if (characters.some((character) => !CHARACTER_CLASSES.some(([pattern]) => pattern.test(character)))) pool += 128;
  const alphabet = Math.min(pool, new Set(characters).size);
  return alphabet <= 1 ? 0 : characters.length * Math.log2(alphabet);
}

/** Node's timers take at most 2^31 - 1 ms; the socket's idle cut is twice REQUEST_TIMEOUT (server/app.ts). */
const NODE_TIMER_MAX_MS = 2 ** 31 - 1;

/** Whether REQUEST_TIMEOUT is longer than Node can time (it would fire at once instead); unparsable is config.ts's to say. */
function requestTimeoutTooLong(value: string | undefined): boolean {
  if (value === undefined) return false;
  try {
    return parseDuration(value) * 1000 * 2 > NODE_TIMER_MAX_MS;
  } catch {
    return false;
  }
}

/** Whether REQUEST_TIMEOUT turns the slow-body cut off (0 means "never" to Node); unparsable is config.ts's to say. */
function requestTimeoutOff(value: string | undefined): boolean {
  if (value === undefined) return false;
  try {
    return parseDuration(value) === 0;
  } catch {
    return false;
  }
}

/**
 * Values committed in this repository or invented by the development defaults: anyone can read them, so a
 * production secret must never equal one of them.
 */
const DEVELOPMENT_VALUES: Record<string, readonly string[]> = {
  STRIPE_WEBHOOK_SECRET: ['whsec_local_development_only'],
  FIREBASE_API_KEY: ['demo-api-key'],
};

export interface ProductionCheck {
  /** Why the API must not start, in one line; null when it may. */
  refusal: string | null;
  /** What the start-up log must state loudly (a demo opt-in). */
  warnings: string[];
}

/** The NODE_ENV values the API knows; any other (a typo, a stray space, another case) must not start. */
const NODE_ENVS = ['production', 'development', 'test'];

export function checkProductionConfig(env: Env): ProductionCheck {
  // "Production", "prod" or "production " would otherwise run as development, with none of the checks below.
  if (env.NODE_ENV !== undefined && env.NODE_ENV !== '' && !NODE_ENVS.includes(env.NODE_ENV)) {
    return {
      refusal: `Refusing to start: NODE_ENV is ${JSON.stringify(env.NODE_ENV)}; use production, development or test (exactly), or leave it unset.`,
      warnings: [],
    };
  }
  if (env.NODE_ENV !== 'production') return { refusal: null, warnings: [] };
  const refuse = (reason: string): ProductionCheck => ({
    refusal: `Refusing to start with NODE_ENV=production: ${reason}`,
    warnings: [],
  });

  if (env.FIREBASE_AUTH_EMULATOR_HOST) {
    return refuse('FIREBASE_AUTH_EMULATOR_HOST is set, which makes firebase-admin accept unsigned tokens; unset it.');
  }
  if (env.FIREBASE_AUTH_EMULATOR_PUBLIC_URL) {
    return refuse('FIREBASE_AUTH_EMULATOR_PUBLIC_URL is set, which points the website\'s sign-in at an Auth emulator; unset it.');
  }
  const projectId = env.FIREBASE_PROJECT_ID?.trim();
  if (!projectId) return refuse('FIREBASE_PROJECT_ID is not set; set it to your Firebase project id.');
  if (projectId.startsWith('demo-')) {
    return refuse(`FIREBASE_PROJECT_ID is "${projectId}", a demo- project that only the emulator serves; set your real project id.`);
  }
  if (env.TRUST_PROXY?.trim() === 'true') {
    return refuse(
      'TRUST_PROXY=true believes any X-Forwarded-For, so a client could pick its own address and dodge the rate limits; ' +
        'set TRUST_PROXY to the number of proxies in front of the API (e.g. 1 behind one load balancer) or to their addresses (e.g. 10.0.0.0/8,192.0.2.10).',
    );
  }
  if (env.LOCAL_WEBHOOK_SECRET) {
    return refuse(
      'LOCAL_WEBHOOK_SECRET is set, which lets the public webhook route accept local checkout events signed with it; unset it (it is for tests only: the local checkout signs its events in process with a random secret made at each start).',
    );
  }
  if (requestTimeoutOff(env.REQUEST_TIMEOUT)) {
    return refuse(
      `REQUEST_TIMEOUT is ${JSON.stringify(env.REQUEST_TIMEOUT)}, which turns off the cut of requests whose headers and body trickle in, so a few clients could hold every connection; set it to a few seconds (the default is 30s) or unset it.`,
    );
  }
  if (requestTimeoutTooLong(env.REQUEST_TIMEOUT)) {
    return refuse(
      `REQUEST_TIMEOUT is ${JSON.stringify(env.REQUEST_TIMEOUT)}, longer than Node can time (at most ${Math.floor(NODE_TIMER_MAX_MS / 2 / 1000)} seconds, as the idle cut is twice it), so its timers would fire at once; set a few seconds (the default is 30s).`,
    );
  }
  if (env.METRICS_TOKEN !== undefined && env.METRICS_TOKEN !== '' && env.METRICS_TOKEN.length < METRICS_TOKEN_MIN_LENGTH) {
    return refuse(
      `METRICS_TOKEN is shorter than ${METRICS_TOKEN_MIN_LENGTH} characters, so it could be guessed; set a random one (e.g. openssl rand -hex 32), or unset it to answer 404 at /api/metrics.`,
    );
  }
  if (env.METRICS_TOKEN && tokenEntropyBits(env.METRICS_TOKEN) < TOKEN_MIN_BITS) {
    return refuse(
      `METRICS_TOKEN has less than ${TOKEN_MIN_BITS} bits of entropy (too few distinct characters for its length), so it could be guessed; set a random one (e.g. openssl rand -hex 32).`,
    );
  }
  for (const [variable, values] of Object.entries(DEVELOPMENT_VALUES)) {
    const value = env[variable];
    if (value !== undefined && values.includes(value)) {
      return refuse(`${variable} still has its development value, which is public; set a secret of your own.`);
    }
  }

  // What the privacy policy states of logs and traces is the operator's choice, made before the site is
  // built (the same VITE_* values the policy shows): production does not start on a promise nobody made.
  const wholeDays = (value: string | undefined) => Number.isInteger(Number(value)) && Number(value) > 0;
  if (!wholeDays(env.VITE_LOG_RETENTION_DAYS)) {
    return refuse(
      'VITE_LOG_RETENTION_DAYS is not set to a whole number of days: choose how long production logs are kept (the privacy policy states it; build the site with the same value) and delete them after that in your log store.',
    );
  }
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    if (!wholeDays(env.VITE_TRACE_RETENTION_DAYS)) {
      return refuse('VITE_TRACE_RETENTION_DAYS is not set to a whole number of days while tracing is on: choose how long your tracing backend keeps traces (the privacy policy states it).');
    }
    if (!env.VITE_TRACING_PROCESSOR?.trim()) {
      return refuse('VITE_TRACING_PROCESSOR is not set while tracing is on: name the company running your tracing backend (the privacy policy names it as a processor).');
    }
  }

  if (env.MAIL !== 'off') {
    const missing = ['SMTP_URL', 'MAIL_FROM'].filter((variable) => !env[variable]?.trim());
    if (missing.length > 0) {
      return refuse(
        `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set, so receipts, renewal reminders and security notices could not be mailed; set SMTP_URL (e.g. smtps://user:pass@smtp.example.com:465) and MAIL_FROM, or MAIL=off to send no e-mail on purpose.`,
      );
    }
  }

  const vpnRefusal = vpnRefusalOf(env);
  if (vpnRefusal) return refuse(vpnRefusal);

  const warnings: string[] = [];
  if (env.STRIPE_SECRET_KEY && !env.STRIPE_PORTAL_CONFIGURATION?.trim()) {
    return refuse(
      "STRIPE_PORTAL_CONFIGURATION is not set, so the Dashboard's default portal configuration would decide what customers may change (plans, cancellation); create one for this product (Dashboard → Settings → Billing → Customer portal, or the API) and set its id (bpc_…).",
    );
  }
  if (!env.VPN_SERVERS?.trim()) {
    warnings.push('VPN_SERVERS is not set (allowed with PAYMENTS=local only): configurations point at the demo servers, which do not exist.');
  }
  if (!env.STRIPE_SECRET_KEY) {
    if (env.PAYMENTS !== 'local') {
      return refuse(
        'no payment provider: STRIPE_SECRET_KEY is not set (set STRIPE_SECRET_KEY, STRIPE_PRICE_ID and STRIPE_WEBHOOK_SECRET, or PAYMENTS=local for a demo that takes no money).',
      );
    }
    warnings.push(
      'PAYMENTS=local: THIS IS A DEMO. Checkout is the local test page, which takes no money and grants Premium to anyone who presses Pay.',
    );
  }
  return { refusal: null, warnings };
}

/** Why the VPN settings (issue 29) must not run in production, or null. */
function vpnRefusalOf(env: Env): string | null {
  // The whole-product demo (PAYMENTS=local, itself loud in the log) may run on the demo servers too.
  if (!env.VPN_SERVERS?.trim() && env.PAYMENTS !== 'local') {
    return 'VPN_SERVERS is not set, so configurations would point at the demo servers; set it to the path of your server catalogue (docs/api.md, "VPN servers").';
  }
  try {
    const catalogue = env.VPN_SERVERS?.trim() ? loadVpnCatalogue(env.VPN_SERVERS.trim()) : null;
    if (catalogue?.demo) return 'VPN_SERVERS names a demo catalogue ("demo": true); list your real servers.';
    const tokens = parseRelayTokens(env.RELAY_TOKENS);
    for (const [relayId, token] of tokens) {
      if (token.length < RELAY_TOKEN_MIN_LENGTH) {
        return `RELAY_TOKENS: the token of relay "${relayId}" is shorter than ${RELAY_TOKEN_MIN_LENGTH} characters; use a random one (e.g. openssl rand -base64 32).`;
      }
      if (tokenEntropyBits(token) < TOKEN_MIN_BITS) {
        return `RELAY_TOKENS: the token of relay "${relayId}" has less than ${TOKEN_MIN_BITS} bits of entropy (too few distinct characters for its length); use a random one (e.g. openssl rand -base64 32).`;
      }
    }
    // A relay token's id is its catalogue server's id (issue 47): the settings, the health report and the
    // removal's confirmation are all by it.
    if (catalogue) {
      const ids = new Set(catalogue.servers.map((server) => server.id));
      const stray = [...tokens.keys()].find((relayId) => !ids.has(relayId));
      if (stray !== undefined) return `RELAY_TOKENS: "${stray}" is not a server id of the catalogue VPN_SERVERS names; name each token by its server's id.`;
      if (tokens.size === 0) {
        return 'RELAY_TOKENS is not set, so no VPN server of the catalogue could learn who may connect; give each catalogue server a token (serverId:token, comma-separated).';
      }
      const untokened = catalogue.servers.find((server) => !tokens.has(server.id));
      if (untokened) {
        return `RELAY_TOKENS has no token for catalogue server "${untokened.id}", so configurations for it would be sold while it never learns of them; give it a token or take it out of the catalogue.`;
      }
    }
  } catch (error) {
    return (error as Error).message;
  }
  return null;
}
