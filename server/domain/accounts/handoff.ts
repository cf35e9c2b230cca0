/**
 * Desktop hand-off (design §7): a one-time token, valid for minutes, travels in the custom-scheme link;
 * the desktop app redeems it for a session of its own. The token is bound to the web session that minted
 * it and dies with it (sign-out, deletion). Redemption is one transaction: a refused redemption (device
 * limit, a fault) leaves the token unused, and a used token always has its desktop session.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { handoffTokens, sessions, users } from '../../db/schema.ts';
import type { UserRow } from './accounts.ts';
import { recordActivity } from '../privacy/account-activity.ts';
import { oweCustomerMessage } from '../customer-messages.ts';
import { failures } from '../errors.ts';
import type { JobSender } from '../jobs.ts';
import { createSession, sessionGrant, type SessionRow, type SignedIn } from './sessions.ts';
import { newToken, sha256 } from '../tokens.ts';
import { liveDeviceCount } from '../devices/wireguard-devices.ts';

/** A hand-off minted by a web session, with its expiry as the answer shows it. */
export async function createHandoffFor(db: Db, { session }: SignedIn, ttlSeconds: number, codeChallenge?: string) {
  const handoff = await createHandoff(db, session, ttlSeconds, codeChallenge ?? null);
  return { handoffToken: handoff.token, expiresAt: handoff.expiresAt.toISOString() };
}

/** Redeems a hand-off for a desktop session, answered like a sign-in. */
export async function redeemHandoffForDevice(db: Db, token: string, deviceName: string, options: RedeemOptions) {
  const { sessionToken, user } = await redeemHandoff(db, token, deviceName, options);
  // The answer's user carries the account's e-mail: the desktop app shows it before use (docs/api.md).
  return sessionGrant(db, sessionToken, user, options.billingNow);
}

async function createHandoff(db: Db, minting: SessionRow, ttlSeconds: number, codeChallenge: string | null, now = new Date()) {
  // Only a web session mints hand-offs: a desktop app cannot multiply itself onto further devices.
  if (minting.kind !== 'web') throw failures.websiteOnly();
  const token = newToken();
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  await db
    .insert(handoffTokens)
    .values({ tokenHash: sha256(token), userId: minting.userId, sessionId: minting.id, createdAt: now, expiresAt, codeChallenge });
  return { token, expiresAt };
}

export interface RedeemOptions {
  sessionTtlSeconds: number;
  /** The billing clock's time: the answer's subscription is judged by it (subscriptions.ts). */
  billingNow: Date;
  /** Live desktop sessions one account may hold (contract/limits.ts). */
  deviceLimit: number;
  /** Where devices can be signed out, named in the limit's error. */
  accountUrl: string;
  /** Owes the "new device signed in" e-mail in the redemption's transaction. */
  jobs: JobSender;
  /** PKCE: the desktop app's verifier, required when the hand-off was minted with a challenge. */
  codeVerifier?: string;
}

/** S256: the challenge is the base64url SHA-256 of the verifier. */
function verifierMatches(challenge: string, verifier: string | undefined): boolean {
  if (verifier === undefined) return false;
  const expected = Buffer.from(challenge);
  const actual = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Consumes the token and opens a desktop session; a second, late or orphaned redemption fails. */
async function redeemHandoff(
  db: Db,
  token: string,
  deviceName: string,
  options: RedeemOptions,
  now = new Date(),
): Promise<{ sessionToken: string; user: UserRow }> {
  return db.transaction(async (tx) => {
    const [handoff] = await tx
      .select({ userId: handoffTokens.userId, codeChallenge: handoffTokens.codeChallenge })
      .from(handoffTokens)
      .innerJoin(sessions, eq(sessions.id, handoffTokens.sessionId))
      .where(
        and(
          eq(handoffTokens.tokenHash, sha256(token)),
          isNull(handoffTokens.usedAt),
          gt(handoffTokens.expiresAt, now),
          // The minting session is still live: signing out (or deleting the account) kills its links.
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
        ),
      );
    if (!handoff) throw failures.handoffInvalid();
    // A pairing the desktop app started redeems only in that app (it holds the verifier): a link planted
    // by another page carries a token minted for someone else's challenge, or for none.
    if (handoff.codeChallenge !== null && !verifierMatches(handoff.codeChallenge, options.codeVerifier)) throw failures.handoffInvalid();
    // An app that started a pairing (it sends a verifier) takes only the link minted for its challenge: a
    // link minted for none was made by whichever page opened it (perhaps another account's), not for it.
    if (handoff.codeChallenge === null && options.codeVerifier !== undefined) throw failures.handoffInvalid();

    // One redemption per account at a time, so two devices cannot both take the last place. The locked row
    // is also the account the answer shows.
    const [user] = await tx.select().from(users).where(eq(users.id, handoff.userId)).for('update');
    if (!user) throw failures.handoffInvalid();
    // Disabled since the link was minted: the disable holds this lock while it ends the sessions (issue 46, item 10).
    if (user.disabledAt) throw failures.accountDisabled();
    // Desktop sessions and WireGuard keys count together (issue 29).
    if ((await liveDeviceCount(tx, handoff.userId, now)) >= options.deviceLimit) throw failures.deviceLimit(options.deviceLimit, options.accountUrl);

    const used = await tx
      .update(handoffTokens)
      .set({ usedAt: now })
      .where(and(eq(handoffTokens.tokenHash, sha256(token)), isNull(handoffTokens.usedAt)))
      .returning({ userId: handoffTokens.userId });
    if (used.length === 0) throw failures.handoffInvalid();

    const { token: sessionToken, session } = await createSession(
      tx,
      handoff.userId,
      options.sessionTtlSeconds,
      { kind: 'desktop', name: deviceName },
      now,
    );
    // The security notice exists exactly when the desktop session does; keyed by that session, which it
    // names: the device's name is read from it when the mail is sent, never kept in the job (issue 31).
    await oweCustomerMessage(tx, options.jobs, { userId: handoff.userId, kind: 'new_device', sessionId: session.id, signedInAt: now.toISOString() }, session.id);
    await recordActivity(tx, { userId: handoff.userId, kind: 'signed_in_new_device', by: 'customer', detail: { deviceName } }, now);
    return { sessionToken, user };
  });
}
