/** Sessions: bearer tokens whose SHA-256 alone is stored, with expiry and revocation (design §7). */
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { sessions, users } from '../../db/schema.ts';
import type { ApiUser, Device, Subscription } from '../../../contract/api.ts';
import { recordActivity } from '../privacy/account-activity.ts';
import { findOrCreateUser, toApiUser, type ShownUserRow, type SignInDetails, type UserRow, type VerifiedIdentity } from './accounts.ts';
import { failures } from '../errors.ts';
import { shownSubscription, toApiSubscription, type ShownSubscriptionRow } from '../billing/subscriptions.ts';
import { newId, newToken, sha256 } from '../tokens.ts';
import { removeSessionKey } from '../devices/peer-access.ts';
import { deviceKindOf, keyFields, keysOfAccount, revokeKeyDevice } from '../devices/wireguard-devices.ts';
import { desktopName } from '../devices/device-names.ts';

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
      lastUsedAt: dayOf(now),
      expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
    })
    .returning();
  return { token, session: session! };
}

/**
 * A session's last use is kept to the day (issue 31): the device list needs no more, and a desktop app's
 * check-ins to the minute would be a timeline of its connections. The day is UTC; the database refuses a
 * time of day (0010). It is written at most once a day per session.
 */
export function dayOf(moment: Date): Date {
  return new Date(Date.UTC(moment.getUTCFullYear(), moment.getUTCMonth(), moment.getUTCDate()));
}

/** A live session and its account, as `authenticate` found them. */
export interface SignedIn {
  session: SessionRow;
  user: UserRow;
}

interface AuthenticateOptions {
  /**
   * Runs once the session is known to be live, before its use is recorded: a failure it throws (a
   * per-account rate limit) is the answer, and the refused call leaves the session's last use as it was.
   */
  admit?: (userId: string) => Promise<void>;
  now?: Date;
}

/** The live session of a token and its user; a 401 failure otherwise. Marks the session as used. */
export async function authenticate(db: Db, token: string, { admit, now = new Date() }: AuthenticateOptions = {}): Promise<SignedIn> {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    // A disabled account's session works for nothing, even one written after the disable (issue 46, item 10).
    .where(and(eq(sessions.tokenHash, sha256(token)), isNull(sessions.revokedAt), gt(sessions.expiresAt, now), isNull(users.disabledAt)));
  if (!row) throw failures.invalidSession();
  await admit?.(row.user.id);
  const today = dayOf(now);
  if (row.session.lastUsedAt.getTime() < today.getTime()) {
    await db.update(sessions).set({ lastUsedAt: today }).where(eq(sessions.id, row.session.id));
  }
  return row;
}

/** Signs a session out; a desktop app session's own WireGuard key leaves with it. */
export async function revokeSession(db: Db, token: string, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.tokenHash, sha256(token)), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id, userId: sessions.userId, kind: sessions.kind });
    if (revoked?.kind === 'desktop') await removeSessionKey(tx, revoked.userId, revoked.id, now);
    return Boolean(revoked);
  });
}

async function listDesktopSessions(db: Db, userId: string, now = new Date()) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.kind, 'desktop'), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(sessions.createdAt);
}

/** Signs one live desktop session of the account out with its own key (inside the caller's transaction); answers its name. 404 otherwise. */
export async function endDesktopSession(tx: Db, userId: string, sessionId: string, now = new Date()): Promise<string> {
  const [revoked] = await tx
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), eq(sessions.kind, 'desktop'), isNull(sessions.revokedAt)))
    .returning({ deviceName: sessions.deviceName });
  if (!revoked) throw failures.notFound('Device');
  // Its own WireGuard key leaves with it (issue 29).
  await removeSessionKey(tx, userId, sessionId, now);
  return desktopName(revoked.deviceName);
}

/** The customer signs a device out: with its activity entry in the same transaction. */
async function revokeDesktopSession(db: Db, userId: string, sessionId: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const deviceName = await endDesktopSession(tx, userId, sessionId, now);
    await recordActivity(tx, { userId, kind: 'device_revoked', by: 'customer', detail: { deviceName } }, now);
  });
}

/** What sign-in, hand-off redemption and verify answer about the account. */
export interface AccountView {
  user: ApiUser;
  subscription: Subscription | null;
}

/** `billingNow`: the billing clock's time, by which the subscription's grace period is judged (subscriptions.ts). */
export function accountView(user: ShownUserRow, subscription: ShownSubscriptionRow | null | undefined, billingNow: Date): AccountView {
  return { user: toApiUser(user), subscription: toApiSubscription(subscription, billingNow) };
}

/** A new session's token with its account, as sign-in and hand-off redemption answer it. */
export async function sessionGrant(db: Db, sessionToken: string, user: UserRow, billingNow: Date): Promise<{ sessionToken: string } & AccountView> {
  return { sessionToken, user: toApiUser(user), subscription: await shownSubscription(db, user.id, billingNow) };
}

/** Signs a verified identity in: its account (created on first sign-in) and a new web session. */
export async function signIn(
  db: Db,
  identity: VerifiedIdentity,
  details: SignInDetails,
  options: { cooldownSeconds: number; sessionTtlSeconds: number; billingNow: Date },
) {
  const user = await findOrCreateUser(db, identity, details, options.cooldownSeconds);
  const { token } = await createSession(db, user.id, options.sessionTtlSeconds);
  return sessionGrant(db, token, user, options.billingNow);
}

/**
 * Every device of an account, oldest first (a desktop app may list where else it is signed in): its desktop
 * app sessions (with the key each attached, if any) and its WireGuard configurations.
 */
export async function listDevices(db: Db, userId: string): Promise<Device[]> {
  const [desktops, keys] = await Promise.all([listDesktopSessions(db, userId), keysOfAccount(db, userId)]);
  const keyOfSession = new Map(keys.filter((key) => key.sessionId).map((key) => [key.sessionId, key]));
  const devices: Array<Device & { at: number }> = [
    ...desktops.map((device) => {
      const key = keyOfSession.get(device.id);
      return {
        id: device.id,
        kind: 'desktop' as const,
        deviceName: desktopName(device.deviceName),
        createdAt: device.createdAt.toISOString(),
        lastUsedAt: device.lastUsedAt.toISOString(),
        ...(key ? keyFields(key) : {}),
        at: device.createdAt.getTime(),
      };
    }),
    ...keys
      .filter((key) => !key.sessionId)
      .map((key) => ({
        id: key.id,
        kind: 'wireguard' as const,
        deviceName: key.name,
        createdAt: key.createdAt.toISOString(),
        ...keyFields(key),
        at: key.createdAt.getTime(),
      })),
  ];
  return devices.sort((a, b) => a.at - b.at).map(({ at: _at, ...device }) => device);
}

/**
 * Removes a device: a desktop app session is signed out (with its own key), a WireGuard key deleted. Only
 * the website's session may (a desktop app signs out itself with /signout).
 */
export async function revokeDevice(db: Db, { session, user }: SignedIn, deviceId: string): Promise<void> {
  if (session.kind !== 'web') throw failures.websiteOnly();
  if ((await deviceKindOf(db, user.id, deviceId)) === 'wireguard') await revokeKeyDevice(db, user.id, deviceId);
  else await revokeDesktopSession(db, user.id, deviceId);
}
