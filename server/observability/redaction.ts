/**
 * The one redaction path (issue 31, item 3; design §7e): what a request log, an error log, a job's stored
 * output or a span may say. No e-mail address, name, IP address, user agent, token or bearer id (receipt,
 * portal, checkout, hand-off) and no account id: requests are logged by their route pattern, never the
 * raw URL; errors by type, code and a message with every such value replaced; SQL parameters are dropped.
 * Names cannot be recognised in free text, so they are kept out at the source: no code logs a name, an
 * error carries none (query errors lose their parameters and PostgreSQL's `detail`), and job payloads
 * carry ids only.
 */

/**
 * An e-mail address in any form RFC 5321 gives a mailbox, with RFC 6531's UTF-8 (issue 46, item 12): a
 * local part of atext atoms joined by dots (apostrophes, +tags and every other atext character, letters and
 * digits of any script) or quoted ("john doe", with quoted pairs); a domain of dotted labels of any script
 * whose last one starts with a letter, or an address literal ([192.0.2.1], [IPv6:2001:db8::1], [tag:text]).
 * A domain of one label (ada@localhost) is left: no customer's verified address has one, and a package path
 * in a stack (node_modules/@fastify/otel) would read as one.
 */
const ATEXT = "[\\p{L}\\p{M}\\p{N}!#$%&'*+/=?^_`{|}~-]";
const LABEL = '[\\p{L}\\p{M}\\p{N}](?:[\\p{L}\\p{M}\\p{N}-]*[\\p{L}\\p{M}\\p{N}])?';
const EMAIL_ADDRESS = new RegExp(
  `(?:${ATEXT}+(?:\\.${ATEXT}+)*|"(?:[^"\\\\\\r\\n]|\\\\.)*")@(?:(?:${LABEL}\\.)+\\p{L}(?:[\\p{L}\\p{M}\\p{N}-]*[\\p{L}\\p{M}\\p{N}])?|\\[[^\\]\\s\\[]+\\])`,
  'gu',
);

/** What a value of each kind is replaced with. */
const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  // drizzle writes a failed query's parameters (e-mail, names, token hashes) after "params: ".
  [/\nparams: [\s\S]*?(?=\n\s+at |$)/g, '\nparams: [redacted]'],
  [EMAIL_ADDRESS, '[email]'],
  // Bearer ids: local and Stripe checkouts, portal sessions and receipts (invoices) open someone's page.
  [/\b(cs|bps|in)_(local|test|live)_[A-Za-z0-9]+/g, '$1_$2_[redacted]'],
  [/\busr_[0-9a-f]{32}\b/g, '[account]'],
  // Session and hand-off tokens (43 base64url characters), their hashes (64 hex) and the like.
  [/[A-Za-z0-9_-]{40,}/g, '[token]'],
  [/\b(?:\d{1,3}\.){3}\d{1,3}\b/g, '[ip]'],
  [/\b(?:[0-9a-f]{1,4}:){3,7}[0-9a-f]{1,4}\b/gi, '[ip]'],
];

/** `text` with every e-mail address, bearer id, account id, token, hash, IP address and SQL parameter replaced. */
export function redactText(text: string): string {
  let redacted = text;
  for (const [pattern, replacement] of PATTERNS) redacted = redacted.replace(pattern, replacement);
  return redacted;
}

export interface LoggedError {
  [key: string]: unknown;
  type: string;
  code?: string;
  message: string;
  stack: string;
  cause?: LoggedError;
}

/**
 * Only type, code, message and stack, redacted, never the error's other properties: a query error carries
 * `params`, a PostgreSQL error `detail` ("Key (email)=(…) already exists"), a mail server's refusal the
 * recipient's address.
 */
export function redactError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '[not an Error]', stack: '' };
  const code = (error as { code?: unknown }).code;
  const logged: LoggedError = {
    type: error.name,
    ...(typeof code === 'string' ? { code } : {}),
    message: redactText(error.message),
    stack: redactText(error.stack ?? ''),
  };
  if (error.cause !== undefined && depth < 3) logged.cause = redactError(error.cause, depth + 1);
  return logged;
}

/** An Error carrying only the redacted type, message and stack of `error`: what a failed job stores as its output. */
export function redactedErrorObject(error: unknown): Error {
  const logged = redactError(error);
  const redacted = new Error(logged.message);
  redacted.name = logged.type;
  redacted.stack = logged.stack;
  return redacted;
}
