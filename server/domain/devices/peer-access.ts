/**
 * Who may connect (issue 29, items 5 and 6; design §7c): a WireGuard key is in the relays' peer list while
 * its account has access, i.e. a subscription the API reports `active` or `past_due`, except Stripe's `unpaid`
 * (accessUntil; design §8, issue 46) and the account is not disabled by support. Every change of the list is a row of peer_changes with the next version of
 * peer_log, written in the transaction that makes the change; `listed` on the key says what the list holds.
 *
 * Locks, always in this order: the account's row (FOR NO KEY UPDATE, so the foreign-key checks of other
 * writes do not wait on it), then the peer_log row (while the changing transaction lasts). The first keeps
 * a registration and a subscription change of one account from deciding on each other's old state; the
 * second numbers changes in commit order.
 */
import { and, eq, gt, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { StaffCustomer } from '../../../contract/api.ts';
import type { Db } from '../../db/database.ts';
import { peerChanges, peerLog, removedWireguardKeys, subscriptions, users, wireguardKeys } from '../../db/schema.ts';
import { accessEndOf, findLiveSubscriptions, reportedLapsedBefore } from '../billing/subscriptions.ts';

/** How long a removed key cannot be registered again: relays may hold it until their next poll. */
export const REMOVED_KEY_BLOCK_MS = 5 * 60_000;

export interface PeerRow {
  publicKey: string;
  ipv4Address: string;
  ipv6Address: string;
  /** An added key: when its access ends if nothing else happens (issue 47). */
  listedUntil?: Date | null;
}

/** Holds the account's row until the transaction ends (see the module's note on lock order). */
export async function lockAccountForPeers(tx: Db, userId: string): Promise<boolean> {
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
  return Boolean(row);
}

/** Appends changes to the peer list under the next versions (in the caller's transaction). */
export async function logPeerChanges(tx: Db, change: 'added' | 'removed', peers: PeerRow[], now = new Date()): Promise<void> {
  if (peers.length === 0) return;
  const [log] = await tx
    .update(peerLog)
    .set({ version: sql`${peerLog.version} + ${peers.length}` })
    .where(eq(peerLog.id, 1))
    .returning({ version: peerLog.version });
  const first = log!.version - peers.length + 1;
  await tx.insert(peerChanges).values(
    peers.map((peer, index) => ({
      version: first + index,
      publicKey: peer.publicKey,
      ipv4Address: peer.ipv4Address,
      ipv6Address: peer.ipv6Address,
      change,
      changedAt: now,
      expiresAt: change === 'added' ? (peer.listedUntil ?? null) : null,
    })),
  );
}

const peerColumns = {
  publicKey: wireguardKeys.publicKey,
  ipv4Address: wireguardKeys.ipv4Address,
  ipv6Address: wireguardKeys.ipv6Address,
  listedUntil: wireguardKeys.listedUntil,
};

/**
 * Whether the account's devices connect (issue 49, item 2: the one answer to "may this account connect",
 * read by the peer list, the device calls and the staff console): `connects` while a live subscription that
 * is not Stripe's `unpaid` still gives access; `pausedUntilPayment` while its payment is owed (Stripe's
 * `unpaid`, or a past due whose retries are over); otherwise `planEnded` (no live subscription, or an
 * account support disabled, which has no access whatever its subscription, issue 30).
 */
type DeviceAccess = StaffCustomer['access'];

export interface AccountAccess {
  access: DeviceAccess;
  /**
   * When the access ends if nothing else happens (issue 47): the latest end of its live subscriptions
   * (accessEndOf, by the billing clock) moved to real time, since the relays enforce it by their own
   * clocks. Null: no live subscription that gives access (none, only Stripe's `unpaid`, or disabled).
   */
  until: Date | null;
}

export async function accountAccess(tx: Db, userId: string, billingNow: Date, now = new Date()): Promise<AccountAccess> {
  const [account] = await tx.select({ disabledAt: users.disabledAt }).from(users).where(eq(users.id, userId));
  if (!account || account.disabledAt !== null) return { access: 'planEnded', until: null };
  const live = await findLiveSubscriptions(tx, userId, billingNow);
  // Stripe's `unpaid` (its retries ended) is live but paid for nothing: no access (design §8, issue 46 item 2).
  const paid = live.filter((row) => !row.unpaid);
  const owed = live.length > 0 ? 'pausedUntilPayment' : 'planEnded';
  if (paid.length === 0) return { access: owed, until: null };
  const end = Math.max(...paid.map((row) => accessEndOf(row, billingNow).getTime()));
  // The billing clock runs ahead of real time by whole seconds (the local clock's offset; none with Stripe).
  const until = new Date(end - Math.round((billingNow.getTime() - now.getTime()) / 1000) * 1000);
  return { access: until.getTime() > now.getTime() ? 'connects' : owed, until };
}

/** accountAccess's end of access: what the peer list lists a key until (null: off the list). */
async function accessUntil(tx: Db, userId: string, billingNow: Date, now = new Date()): Promise<Date | null> {
  return (await accountAccess(tx, userId, billingNow, now)).until;
}

/** A key's own expiry (a desktop session's end) bounds its account's: the earlier of the two, in SQL. */
const keyListedUntil = (until: Date) => sql`least(${wireguardKeys.expiresAt}, ${until.toISOString()}::timestamptz)`;

/**
 * Puts the account's keys in or out of the peer list as its access now says. Call it in the transaction
 * of any change to the account's subscriptions or keys, after that change. `billingNow` is the billing
 * clock's time (the subscription's grace period, subscriptions.ts); `now` the real one (a desktop
 * session's key ends with its session, and the change log is dated by it).
 */
export async function syncPeerAccess(tx: Db, userId: string, billingNow: Date, now = new Date()): Promise<void> {
  const [account] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
  if (!account) return;
  const until = await accessUntil(tx, userId, billingNow, now);
  if (until === null) {
    const removed = await tx
      .update(wireguardKeys)
      .set({ listed: false, listedUntil: null })
      .where(and(eq(wireguardKeys.userId, userId), eq(wireguardKeys.listed, true)))
      .returning(peerColumns);
    await logPeerChanges(tx, 'removed', removed, now);
    return;
  }
  // Keys coming onto the list, and listed keys whose expiry moved (a renewal): each an `added` change.
  const changed = await tx
    .update(wireguardKeys)
    .set({ listed: true, listedUntil: keyListedUntil(until) })
    .where(
      and(
        eq(wireguardKeys.userId, userId),
        or(eq(wireguardKeys.listed, false), sql`${wireguardKeys.listedUntil} is distinct from ${keyListedUntil(until)}`),
        // A desktop session's key whose session ended stays off (the sweep deletes it).
        or(isNull(wireguardKeys.expiresAt), gt(wireguardKeys.expiresAt, now)),
      ),
    )
    .returning(peerColumns);
  await logPeerChanges(tx, 'added', changed, now);
}

/**
 * Deletes keys (revoked, rotated away, their session ended, their account deleted): listed ones leave the
 * peer list, and each is blocked from coming back for REMOVED_KEY_BLOCK_MS. The account must be locked.
 */
export async function removeKeys(tx: Db, where: ReturnType<typeof and>, now = new Date()): Promise<PeerRow[]> {
  const removed = await tx.delete(wireguardKeys).where(where).returning({ ...peerColumns, listed: wireguardKeys.listed });
  if (removed.length === 0) return [];
  await logPeerChanges(tx, 'removed', removed.filter((key) => key.listed), now);
  await tx.delete(removedWireguardKeys).where(lte(removedWireguardKeys.removedAt, new Date(now.getTime() - REMOVED_KEY_BLOCK_MS)));
  await tx
    .insert(removedWireguardKeys)
    .values(removed.map((key) => ({ publicKey: key.publicKey, removedAt: now })))
    .onConflictDoUpdate({ target: removedWireguardKeys.publicKey, set: { removedAt: now } });
  return removed;
}

/** Every key of an account leaves the list and is deleted (account deletion frees its addresses). */
export async function removeAccountKeys(tx: Db, userId: string, now = new Date()): Promise<void> {
  await lockAccountForPeers(tx, userId);
  await removeKeys(tx, eq(wireguardKeys.userId, userId), now);
}

/** A desktop session signed out or revoked: its own key goes with it. */
export async function removeSessionKey(tx: Db, userId: string, sessionId: string, now = new Date()): Promise<void> {
  await lockAccountForPeers(tx, userId);
  await removeKeys(tx, and(eq(wireguardKeys.userId, userId), eq(wireguardKeys.sessionId, sessionId)), now);
}

/** Every desktop session's own key of the account (its sessions all ended: support disabled it). */
export async function removeSessionKeysOf(tx: Db, userId: string, now = new Date()): Promise<void> {
  await lockAccountForPeers(tx, userId);
  await removeKeys(tx, and(eq(wireguardKeys.userId, userId), isNotNull(wireguardKeys.sessionId)), now);
}

/**
 * What changes with time alone, settled before a poll answers: an `active` subscription past its end by
 * more than the grace period with no event is reported lapsed (subscriptions.ts), and a desktop session's
 * key ends with its session. Both are found through indexes (subscriptions by status and period end, keys
 * by expiry), never by reading every device. The lapse is by the billing clock (`billingNow`), the expiry
 * by real time (`now`).
 */
export async function settleTimedAccess(db: Db, billingNow: Date, now = new Date()): Promise<void> {
  const lapsed = await db
    .selectDistinct({ userId: subscriptions.userId })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.status, 'active'),
        isNotNull(subscriptions.currentPeriodEnd),
        lte(subscriptions.currentPeriodEnd, reportedLapsedBefore(billingNow)),
        sql`exists (select 1 from ${wireguardKeys} where ${wireguardKeys.userId} = ${subscriptions.userId} and ${wireguardKeys.listed})`,
      ),
    );
  for (const { userId } of lapsed) await db.transaction((tx) => syncPeerAccess(tx, userId, billingNow, now));

  const ended = await db
    .select({ id: wireguardKeys.id, userId: wireguardKeys.userId })
    .from(wireguardKeys)
    .where(and(eq(wireguardKeys.listed, true), isNotNull(wireguardKeys.expiresAt), lte(wireguardKeys.expiresAt, now)));
  for (const key of ended) {
    await db.transaction(async (tx) => {
      await lockAccountForPeers(tx, key.userId);
      await removeKeys(tx, and(eq(wireguardKeys.id, key.id), lte(wireguardKeys.expiresAt, now)), now);
    });
  }
}
