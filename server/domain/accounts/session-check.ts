/**
 * The session check of POST /auth/verify, the call every page load and desktop app start makes: session,
 * user and subscription in one indexed round trip, and the last use (a day, issue 31) written at most once a day.
 *
 * Written as SQL text and run without the ORM (Database.statement): on PostgreSQL both statements are
 * prepared once per connection under a name, so PostgreSQL neither re-parses nor re-plans them, and the
 * rows come back as arrays of only the columns the answer needs. CPU profiles of the API under verify
 * load found drizzle's row mapping and pg's parsing of every column of three tables to be most of what
 * verify cost beyond the bare route's work, and then the round trip itself: writing the query to
 * PostgreSQL's socket (a system call that wakes a backend) was the largest single item left.
 *
 * So the checks that arrive within one turn of the event loop share one statement (one write, one read,
 * one answer to parse): each still reads the database after its request arrived, so a session signed out
 * or a subscription changed a moment before is seen, exactly as with one statement per check.
 */
import type { Database } from '../../db/database.ts';
import type { ShownUserRow, UserRow } from './accounts.ts';
import { failures } from '../errors.ts';
import { shownSubscriptionFirstSql, type ShownSubscriptionRow } from '../billing/subscriptions.ts';
import { refundFactsSql } from '../billing/refunds.ts';
import { sha256 } from '../tokens.ts';

/** What verify answers about a live session: its account and the subscription the account is shown. */
export interface SessionCheck {
  sessionId: string;
  user: ShownUserRow;
  subscription: ShownSubscriptionRow | null;
  /**
   * How far the local checkout's billing clock was moved (0 when it never was), read in the same statement:
   * verify's grace rule runs by the billing clock (issue 34), and a second round trip to read it would cost
   * every verify more than the rule itself (issue 32).
   */
  billingClockOffsetSeconds: number;
}

/** A row of veil_session_check, column by column. */
type SessionCheckRow = [
  tokenHash: string,
  sessionId: string,
  stale: boolean,
  userId: string,
  email: string,
  name: string,
  provider: UserRow['provider'],
  status: string | null,
  plan: string | null,
  cancelAtPeriodEnd: boolean | null,
  currentPeriodEnd: Date | null,
  unpaid: boolean | null,
  billingClockOffsetSeconds: number | null,
  refundedAt: Date | null,
  moneyBackUsed: boolean,
  providerUpdatedAt: number | null,
];

/** The UTC day of $2 ("now"), as the last use is kept (server/domain/accounts/sessions.ts, dayOf). */
const TODAY_SQL = `date_trunc('day', $2::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;

/** At most this many tokens go in one statement; checks beyond it start the next one at once. */
const MOST_PER_STATEMENT = 100;

interface Waiting {
  tokenHash: string;
  resolve: (check: SessionCheck) => void;
  reject: (error: unknown) => void;
}

/** The live session of a token with its account and subscription; a 401 failure otherwise. */
export function prepareSessionCheck(database: Database): (token: string) => Promise<SessionCheck> {
  // $1: the tokens' hashes; $2: "now" (a live session expires after it; the last use is stale before
  // its UTC day). A session of a disabled account is no session, whenever it was written: a sign-in or a
  // hand-off racing the disable may write one after the disable ended the others (issue 46, item 10). One row per live session, with the subscription its account is shown. Each token is
  // looked up on its own (lateral, limit 1) so that PostgreSQL uses the token's unique index whatever
  // the table's size: with "token_hash = any($1)" its generic plan scanned a table of a thousand sessions.
  const lookup = database.statement(
    'veil_session_check',
    `select t.token_hash, s.id, s.last_used_at < ${TODAY_SQL},
            u.id, u.email, u.name, u.provider,
            b.status, b.plan, b.cancel_at_period_end, b.current_period_end, b.unpaid,
            (select c.offset_seconds::float8 from local_billing_clock c where c.id = 1),
            ${refundFactsSql('b.provider_subscription_id', 'u.id')},
            b.provider_updated_at::float8
       from unnest($1::text[]) as t(token_hash)
      cross join lateral (
            select s.id, s.user_id, s.last_used_at from sessions s
             where s.token_hash = t.token_hash and s.revoked_at is null and s.expires_at > $2::timestamptz
             limit 1) s
       join users u on u.id = s.user_id and u.disabled_at is null
       left join lateral (
            select b.status, b.plan, b.cancel_at_period_end, b.current_period_end, b.unpaid, b.provider_subscription_id, b.provider_updated_at from subscriptions b
             where b.user_id = s.user_id
             order by ${shownSubscriptionFirstSql('b')}
             limit 1) b on true`,
  );
  const touch = database.statement('veil_session_touch', `update sessions set last_used_at = ${TODAY_SQL} where id = any($1::text[])`);

  async function check(batch: Waiting[]) {
    const now = new Date().toISOString();
    let rows: unknown[][];
    try {
      rows = await lookup([[...new Set(batch.map((waiting) => waiting.tokenHash))], now]);
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    const found = new Map<string, { check: SessionCheck; stale: boolean }>();
    const staleIds: string[] = [];
    for (const row of rows) {
      const [tokenHash, sessionId, stale, userId, email, name, provider, status, plan, cancelAtPeriodEnd, currentPeriodEnd, unpaid, billingClockOffsetSeconds, refundedAt, moneyBackUsed, providerUpdatedAt] =
        row as SessionCheckRow;
      found.set(tokenHash, {
        stale,
        check: {
          sessionId,
          user: { id: userId, email, name, provider },
          // A subscription's status is never null: a null one is the left join finding none.
          subscription: status === null ? null : { status, plan, cancelAtPeriodEnd: cancelAtPeriodEnd!, currentPeriodEnd, unpaid: unpaid!, refundedAt, moneyBackUsed, providerUpdatedAt: providerUpdatedAt ?? 0 },
          billingClockOffsetSeconds: billingClockOffsetSeconds ?? 0,
        },
      });
      if (stale) staleIds.push(sessionId);
    }
    // A check whose last use is written answers once it is, as it always did; the others do not wait.
    const touched = staleIds.length > 0 ? touch([staleIds, now]) : null;
    for (const waiting of batch) {
      const session = found.get(waiting.tokenHash);
      if (!session) waiting.reject(failures.invalidSession());
      else if (session.stale && touched) touched.then(() => waiting.resolve(session.check), waiting.reject);
      else waiting.resolve(session.check);
    }
  }

  let waiting: Waiting[] = [];
  const startWaiting = () => {
    const batch = waiting;
    waiting = [];
    if (batch.length > 0) void check(batch);
  };
  return (token) =>
    new Promise<SessionCheck>((resolve, reject) => {
      // setImmediate runs once the event loop has read every request that was ready: they go together.
      if (waiting.length === 0) setImmediate(startWaiting);
      waiting.push({ tokenHash: sha256(token), resolve, reject });
      if (waiting.length >= MOST_PER_STATEMENT) startWaiting();
    });
}
