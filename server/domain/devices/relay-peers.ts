/**
 * The peer list the VPN servers poll (issue 29, item 5): every key that may connect now with the list's
 * version, or the changes since a version the relay already has. A `since` poll reads the change log by
 * version (its primary key), never the devices; the full list reads the listed keys in one statement with
 * the version, so the two always match.
 */
import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Peer } from '../../../contract/relay.ts';
import type { Db } from '../../db/database.ts';
import { peerChanges, peerLog, removedWireguardKeys, wireguardKeys } from '../../db/schema.ts';
import { ApiFailure } from '../errors.ts';
import { REMOVED_KEY_BLOCK_MS, settleTimedAccess } from './peer-access.ts';

/** How long the change log is kept: a relay away for longer fetches the full list (410). */
const PEER_CHANGE_RETENTION_MS = 7 * 86_400_000;

const versionGone = () =>
  new ApiFailure(410, 'version_gone', 'That version of the peer list is no longer kept (or was never answered here). Fetch the full list.');

/**
 * A listed key's expiry as ISO 8601. Every listed key and added change written since migration 0016 has one;
 * the fallback (a day from now) only keeps the answer well-formed.
 */
function expiryOf(value: Date | null): string {
  return (value ?? new Date(Date.now() + 86_400_000)).toISOString();
}

/** The list's current version and the lowest `since` it can answer. */
async function currentLog(db: Db): Promise<{ version: number; floor: number }> {
  const [log] = await db.select({ version: peerLog.version, floor: peerLog.floor }).from(peerLog).where(eq(peerLog.id, 1));
  return log ?? { version: 0, floor: 0 };
}

/**
 * Change-log rows older than the retention (7 days, contract/retention.ts) are dropped, raising the floor: a
 * relay asking from before it fetches the full list. Run by the daily clean-up (retention-purge.ts), so the
 * stated 7 days hold whether or not relays poll (issue 49, item 2). Answers how many rows went.
 */
export async function trimPeerChangeLog(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - PEER_CHANGE_RETENTION_MS);
  const [stale] = await db
    .select({ version: sql<number | null>`max(${peerChanges.version})`.mapWith(Number) })
    .from(peerChanges)
    .where(lte(peerChanges.changedAt, cutoff));
  if (!stale?.version) return 0;
  return db.transaction(async (tx) => {
    await tx.update(peerLog).set({ floor: sql`greatest(${peerLog.floor}, ${stale.version})` }).where(eq(peerLog.id, 1));
    return (await tx.delete(peerChanges).where(lte(peerChanges.version, stale.version)).returning({ version: peerChanges.version })).length;
  });
}

/**
 * What changes with time alone is settled (peer-access.ts) before each poll answers: every step is an
 * index range. A lapse past the grace period is by the billing clock (`billingNow`), everything else by
 * real time. The change log's retention is the daily clean-up's (trimPeerChangeLog), not the poll's.
 */
export async function preparePoll(db: Db, billingNow: Date, now = new Date()): Promise<{ version: number }> {
  await settleTimedAccess(db, billingNow, now);
  // Removed keys are blocked for minutes only: cleared on the relays' schedule, not at the next removal.
  await db.delete(removedWireguardKeys).where(lte(removedWireguardKeys.removedAt, new Date(now.getTime() - REMOVED_KEY_BLOCK_MS)));
  return { version: (await currentLog(db)).version };
}

/** Every key that may connect now, with the version of the list they make. */
export async function fullPeerList(db: Db): Promise<{ version: number; peers: Peer[] }> {
  const rows = await db
    .select({
      version: peerLog.version,
      publicKey: wireguardKeys.publicKey,
      ipv4Address: wireguardKeys.ipv4Address,
      ipv6Address: wireguardKeys.ipv6Address,
      listedUntil: wireguardKeys.listedUntil,
    })
    .from(peerLog)
    .leftJoin(wireguardKeys, eq(wireguardKeys.listed, true))
    .where(eq(peerLog.id, 1));
  const version = rows[0]?.version ?? 0;
  const peers: Peer[] = [];
  for (const row of rows) {
    if (row.publicKey && row.ipv4Address && row.ipv6Address) {
      peers.push({ publicKey: row.publicKey, ipv4Address: row.ipv4Address, ipv6Address: row.ipv6Address, expiresAt: expiryOf(row.listedUntil) });
    }
  }
  return { version, peers };
}

/**
 * The changes after version `since`, netted per key (the last change of a key wins): `added` with their
 * addresses, `removed` by public key. A version below the log's floor, or above its current version (a
 * different database), is a 410: the relay fetches the full list.
 */
export async function peerChangesSince(db: Db, since: number): Promise<{ version: number; added: Peer[]; removed: string[] }> {
  const { version, floor } = await currentLog(db);
  if (since < floor || since > version) throw versionGone();
  const rows = await db
    .select()
    .from(peerChanges)
    .where(and(gt(peerChanges.version, since), lte(peerChanges.version, version)))
    .orderBy(asc(peerChanges.version));
  const last = new Map<string, (typeof rows)[number]>();
  for (const row of rows) {
    last.delete(row.publicKey);
    last.set(row.publicKey, row);
  }
  const added: Peer[] = [];
  const removed: string[] = [];
  for (const row of last.values()) {
    if (row.change === 'added') added.push({ publicKey: row.publicKey, ipv4Address: row.ipv4Address, ipv6Address: row.ipv6Address, expiresAt: expiryOf(row.expiresAt) });
    else removed.push(row.publicKey);
  }
  return { version, added, removed };
}
