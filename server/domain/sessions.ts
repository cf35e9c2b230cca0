/** Sessions: bearer tokens whose SHA-256 alone is stored, with expiry and revocation (design §7). */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { sessions, subscriptions, users } from '../db/schema.ts';
import type { ApiUser, Device, Subscription } from '../../contract/api.ts';
import { findOrCreateUser, toApiUser, type SignInDetails, type UserRow, type VerifiedIdentity } from './accounts.ts';
import { failures } from './errors.ts';
import { findSubscription, shownSubscriptionFirst, toApiSubscription, type SubscriptionRow } from './subscriptions.ts';
import { newId, newToken, sha256 } from './tokens.ts';

export type SessionRow = typeof sessions.$inferSelect;

export async function createSession(
  db: Db,
  userId: string,
  ttlSeconds: number,
  device: { kind: 'web' } | { kind: 'desktop'; name: string } = { kind: 'web' },
  now = new Date(),
): Promise<{ token: string; session: SessionRow }> {
  const token = newToken();
  const [session] = await db
    .insert(sessions)
    .values({
      id: newId('ses'),
      userId,
      tokenHash: sha256(token),
      kind: device.kind,
      deviceName: device.kind === 'desktop' ? device.name : null,
      createdAt: now,
      lastUsedAt: now,
      expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
    })
    .returning();
  return { token, session: session! };
}

/** Last use is for the device list; a minute's precision is plenty and saves a write per request. */
const LAST_USE_PRECISION_MS = 60_000;

/** The live session of a token and its user; a 401 failure otherwise. Marks the session as used. */
export async function authenticate(db: Db, token: string, now = new Date()): Promise<{ session: SessionRow; user: UserRow }> {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sha256(token)), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
  if (!row) throw failures.invalidSession();
  if (now.getTime() - row.session.lastUsedAt.getTime() > LAST_USE_PRECISION_MS) {
    await db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.id, row.session.id));
  }
  return row;
}

export interface SessionCheck {
  sessionId: string;
  user: UserRow;
  subscription: SubscriptionRow | null;
}

/**
 * The hot path of POST /auth/verify, which every page load and desktop app makes: session, user and
 * subscription in one indexed round trip. Both statements are prepared once per database under a name,
 * so neither drizzle nor PostgreSQL rebuilds or re-plans the SQL per call (a CPU profile found about a
 * fifth of the time in drizzle's query building and a seventh in sending unnamed statements).
 */
export function prepareSessionCheck(db: Db): (token: string, now?: Date) => Promise<SessionCheck> {
  const lookup = db
    .select({ sessionId: sessions.id, lastUsedAt: sessions.lastUsedAt, user: users, subscription: subscriptions })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(subscriptions, eq(subscriptions.userId, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    // An account may hold several subscription rows (one live at most): answer the one it is shown.
    .orderBy(...shownSubscriptionFirst)
    .limit(1)
    .prepare('veil_session_check');
  const touch = db
    .update(sessions)
    .set({ lastUsedAt: sql`${sql.placeholder('now')}` })
    .where(eq(sessions.id, sql.placeholder('id')))
    .prepare('veil_session_touch');

  return async (token, now = new Date()) => {
    const [row] = await lookup.execute({ tokenHash: sha256(token), now });
    if (!row) throw failures.invalidSession();
    if (now.getTime() - row.lastUsedAt.getTime() > LAST_USE_PRECISION_MS) await touch.execute({ id: row.sessionId, now });
    return { sessionId: row.sessionId, user: row.user, subscription: row.subscription };
  };
}

/** The account of a live session token, or null; one prepared, indexed lookup (for per-account limits). */
export function prepareSessionOwner(db: Db): (token: string, now?: Date) => Promise<string | null> {
  const lookup = db
    .select({ userId: sessions.userId })
    .from(sessions)
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .prepare('veil_session_owner');
  return async (token, now = new Date()) => (await lookup.execute({ tokenHash: sha256(token), now }))[0]?.userId ?? null;
}

export async function revokeSession(db: Db, token: string, now = new Date()): Promise<boolean> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.tokenHash, sha256(token)), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return revoked.length > 0;
}

async function listDesktopSessions(db: Db, userId: string, now = new Date()) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.kind, 'desktop'), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(sessions.createdAt);
}

async function revokeDesktopSession(db: Db, userId: string, sessionId: string, now = new Date()): Promise<void> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), eq(sessions.kind, 'desktop'), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  if (revoked.length === 0) throw failures.notFound('Device');
}

/** What sign-in, hand-off redemption and verify answer about the account. */
export interface AccountView {
  user: ApiUser;
  subscription: Subscription | null;
}

export function accountView(user: UserRow, subscription: SubscriptionRow | null | undefined): AccountView {
  return { user: toApiUser(user), subscription: toApiSubscription(subscription) };
}

/** A new session's token with its account, as sign-in and hand-off redemption answer it. */
export async function sessionGrant(db: Db, sessionToken: string, user: UserRow): Promise<{ sessionToken: string } & AccountView> {
  return { sessionToken, ...accountView(user, await findSubscription(db, user.id)) };
}

/** Signs a verified identity in: its account (created on first sign-in) and a new web session. */
export async function signIn(
  db: Db,
  identity: VerifiedIdentity,
  details: SignInDetails,
  options: { cooldownSeconds: number; sessionTtlSeconds: number },
) {
  const user = await findOrCreateUser(db, identity, details, options.cooldownSeconds);
  const { token } = await createSession(db, user.id, options.sessionTtlSeconds);
  return sessionGrant(db, token, user);
}

/** The desktop sessions of a session's account (a desktop app may list where else it is signed in). */
export async function listDevices(db: Db, sessionToken: string): Promise<Device[]> {
  const { user } = await authenticate(db, sessionToken);
  const devices = await listDesktopSessions(db, user.id);
  return devices.map((device) => ({
    id: device.id,
    deviceName: device.deviceName ?? 'Desktop app',
    createdAt: device.createdAt.toISOString(),
    lastUsedAt: device.lastUsedAt.toISOString(),
  }));
}

/** Signs a device out; only the website's session may (a desktop app signs out itself with /signout). */
export async function revokeDevice(db: Db, sessionToken: string, deviceId: string): Promise<void> {
  const { user, session } = await authenticate(db, sessionToken);
  if (session.kind !== 'web') throw failures.websiteOnly();
  await revokeDesktopSession(db, user.id, deviceId);
}
