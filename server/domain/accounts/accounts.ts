/**
 * Accounts: one per identity subject, created on first sign-in (spec §1: "created instantly"). The
 * verifier lets only the route's own provider through; an account's e-mail is only ever one the provider
 * verified (issue 10 §2).
 */
import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { ApiUser } from '../../../contract/api.ts';
import type { StaffRole } from '../../../contract/staff.ts';
import type { Db } from '../../db/database.ts';
import { deletionTombstones, openCheckouts, users } from '../../db/schema.ts';
import { failures } from '../errors.ts';
import { newId, sha256 } from '../tokens.ts';

export type UserRow = typeof users.$inferSelect;
/** What an answer's `user` is made of (toApiUser). */
export type ShownUserRow = Pick<UserRow, 'id' | 'email' | 'name' | 'provider'>;

export interface VerifiedIdentity {
  subject: string;
  /** The provider-verified e-mail address; null when the token has none or it is not verified. */
  email: string | null;
  name: string | null;
  /** The token's `staff` claim (issue 30), when it carries one; never read from a body. */
  staffRole?: StaffRole | null;
  /** When the person last signed in with the provider (the token's `auth_time`, Unix seconds). */
  authTime?: number;
}

/** How recent a sign-in must be for what is worth a second look at who asks (a copy of the data, a new WireGuard configuration). */
export const RECENT_SIGN_IN_SECONDS = 600;

/** Whether `identity` signed in within the last 10 minutes (its token's auth_time). */
export function signedInRecently(identity: Pick<VerifiedIdentity, 'authTime'>, now = new Date()): boolean {
  return identity.authTime !== undefined && now.getTime() / 1000 - identity.authTime <= RECENT_SIGN_IN_SECONDS;
}

export interface SignInDetails {
  provider: 'google' | 'apple';
  /** Apple sends the name only on the first sign-in (in the request body); it fills an empty name then. */
  fullName?: string | null;
}

/**
 * What the tombstone of a deleted account keeps: hashes of its subject and of its e-mail address, for the
 * cool-down only (purgeExpiredTombstones). Plain SHA-256: whoever already knows an address can tell it
 * was deleted within the cool-down, which the privacy policy says.
 */
export function tombstoneHashes(subject: string, email: string | null): string[] {
  const normalised = email?.trim().toLowerCase();
  return normalised ? [sha256(subject), sha256(`email:${normalised}`)] : [sha256(subject)];
}

/**
 * Deletes the tombstones whose cool-down is over: the privacy policy promises they go then. Run at
 * start-up and before every new account is checked against them, so no timer is needed.
 */
export async function purgeExpiredTombstones(db: Db, cooldownSeconds: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - cooldownSeconds * 1000);
  const purged = await db
    .delete(deletionTombstones)
    .where(lt(deletionTombstones.deletedAt, cutoff))
    .returning({ subjectHash: deletionTombstones.subjectHash });
  return purged.length;
}

/**
 * The first UTC day that starts at or after `moment`: the date the refusal names. The API does not know the
 * customer's time zone; rounding up makes the date right for anyone at or west of UTC (the cool-down is over
 * all of that day) and at most a few hours early for a customer further east.
 */
function firstWholeDayFrom(moment: Date): Date {
  const day = new Date(Date.UTC(moment.getUTCFullYear(), moment.getUTCMonth(), moment.getUTCDate()));
  return day.getTime() < moment.getTime() ? new Date(day.getTime() + 86_400_000) : day;
}

export async function findOrCreateUser(
  db: Db,
  identity: VerifiedIdentity,
  details: SignInDetails,
  cooldownSeconds: number,
  now = new Date(),
): Promise<UserRow> {
  const [existing] = await db.select().from(users).where(eq(users.identitySubject, identity.subject));
  if (existing) {
    if (existing.disabledAt) throw failures.accountDisabled();
    const email = identity.email ?? existing.email;
    if (email !== existing.email) {
      const [updated] = await db.update(users).set({ email }).where(eq(users.id, existing.id)).returning();
      return updated!;
    }
    return existing;
  }

  if (!identity.email) throw failures.noVerifiedEmail(details.provider);
  // The cool-down holds per identity and per e-mail address: a new identity with the same address waits too.
  await purgeExpiredTombstones(db, cooldownSeconds, now);
  const tombstones = await db
    .select()
    .from(deletionTombstones)
    .where(inArray(deletionTombstones.subjectHash, tombstoneHashes(identity.subject, identity.email)));
  const lastDeletedAt = Math.max(...tombstones.map((tombstone) => tombstone.deletedAt.getTime()));
  if (tombstones.length > 0 && now.getTime() - lastDeletedAt < cooldownSeconds * 1000) {
    throw failures.recentlyDeleted(firstWholeDayFrom(new Date(lastDeletedAt + cooldownSeconds * 1000)));
  }

  const email = identity.email;
  const name = identity.name ?? (details.provider === 'apple' ? details.fullName?.trim() : null) ?? '';
  const [created] = await db
    .insert(users)
    .values({ id: newId('usr'), identitySubject: identity.subject, provider: details.provider, email, name })
    .onConflictDoNothing({ target: users.identitySubject })
    .returning();
  if (created) return created;
  // Two first sign-ins raced: the other one created the row.
  const [winner] = await db.select().from(users).where(eq(users.identitySubject, identity.subject));
  return winner!;
}

/** An account as answers show it. */
export function toApiUser(user: ShownUserRow): ApiUser {
  return { id: user.id, email: user.email, name: user.name, provider: user.provider };
}

export async function findUserById(db: Db, userId: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  return user;
}

/** The account of a verified identity, for calls that never create one (checkout, cancel): 401 otherwise. */
export async function accountOfIdentity(db: Db, identity: Pick<VerifiedIdentity, 'subject'>): Promise<UserRow> {
  const [user] = await db.select().from(users).where(eq(users.identitySubject, identity.subject));
  if (!user) throw failures.signInRequired();
  if (user.disabledAt) throw failures.accountDisabled();
  return user;
}

/** The account holding a provider customer, or null. */
export async function findUserIdByCustomer(db: Db, customer: string): Promise<string | null> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.paymentCustomerId, customer));
  return user?.id ?? null;
}

/**
 * Stores the account's provider customer unless it has one already (one customer per account: the first
 * stored stays); answers the customer the account holds now, or null when the account does not exist.
 */
export async function claimPaymentCustomer(db: Db, userId: string, customer: string): Promise<string | null> {
  await db
    .update(users)
    .set({ paymentCustomerId: customer })
    .where(and(eq(users.id, userId), isNull(users.paymentCustomerId)));
  const [stored] = await db.select({ customer: users.paymentCustomerId }).from(users).where(eq(users.id, userId));
  return stored ? stored.customer : null;
}

/**
 * A provider customer deleted at the provider (issue 20, item 6): the account holding it forgets it and
 * its open checkout (made for that customer), so its next checkout makes a new customer, not a 502.
 */
export async function forgetPaymentCustomer(db: Db, customer: string): Promise<boolean> {
  // Counted, so the next customer's idempotency key differs from the deleted one's: Stripe would
  // otherwise replay the deleted customer for a day (issue 34).
  const forgotten = await db
    .update(users)
    .set({ paymentCustomerId: null, paymentCustomersDeleted: sql`${users.paymentCustomersDeleted} + 1` })
    .where(eq(users.paymentCustomerId, customer))
    .returning({ id: users.id });
  for (const { id } of forgotten) await db.delete(openCheckouts).where(eq(openCheckouts.userId, id));
  return forgotten.length > 0;
}
