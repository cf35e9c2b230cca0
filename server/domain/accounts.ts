/** Accounts: one per identity subject, created on first sign-in (spec §1: "created instantly"). */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { deletionTombstones, users } from '../db/schema.ts';
import { failures } from './errors.ts';
import { newId, sha256 } from './tokens.ts';

export type UserRow = typeof users.$inferSelect;

export interface VerifiedIdentity {
  subject: string;
  email: string | null;
  name: string | null;
}

export interface SignInDetails {
  provider: 'google' | 'apple';
  /** Apple sends e-mail and name only on the first sign-in; they are kept from then on. */
  email?: string | null;
  fullName?: string | null;
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
    const email = identity.email ?? existing.email;
    if (email !== existing.email) {
      const [updated] = await db.update(users).set({ email }).where(eq(users.id, existing.id)).returning();
      return updated!;
    }
    return existing;
  }

  const [tombstone] = await db
    .select()
    .from(deletionTombstones)
    .where(eq(deletionTombstones.subjectHash, sha256(identity.subject)));
  if (tombstone && now.getTime() - tombstone.deletedAt.getTime() < cooldownSeconds * 1000) {
    throw failures.recentlyDeleted();
  }

  const email = identity.email ?? details.email ?? '';
  const name = identity.name ?? details.fullName ?? '';
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
