/**
 * Desktop hand-off (design §7): a one-time token, valid for minutes, travels in the custom-scheme link;
 * the desktop app redeems it for a session of its own. Single use is enforced by one conditional update.
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { handoffTokens } from '../db/schema.ts';
import { failures } from './errors.ts';
import { newToken, sha256 } from './tokens.ts';

export async function createHandoff(db: Db, userId: string, ttlSeconds: number, now = new Date()) {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  await db.insert(handoffTokens).values({ tokenHash: sha256(token), userId, createdAt: now, expiresAt });
  return { token, expiresAt };
}

/** Consumes the token and returns its user id; a second redemption, or a late one, fails. */
export async function redeemHandoff(db: Db, token: string, now = new Date()): Promise<string> {
  const [used] = await db
    .update(handoffTokens)
    .set({ usedAt: now })
    .where(and(eq(handoffTokens.tokenHash, sha256(token)), isNull(handoffTokens.usedAt), gt(handoffTokens.expiresAt, now)))
    .returning({ userId: handoffTokens.userId });
  if (!used) throw failures.handoffInvalid();
  return used.userId;
}
