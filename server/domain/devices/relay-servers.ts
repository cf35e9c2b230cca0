/**
 * What the API knows of each VPN server (issues 47 and 48): only its latest health report (aggregate counts),
 * the highest peer-list version it confirmed having applied, and a daily tally of the report intervals in
 * which it reported. Nothing per key, endpoint or customer.
 */
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { RelayHealthReport } from '../../../contract/relay.ts';
import type { Db } from '../../db/database.ts';
import { peerLog, relayServers, relayUptimeDays } from '../../db/schema.ts';

/** The agent reports every this many seconds (GET /relay/v1/settings tells it). */
export const HEALTH_INTERVAL_SECONDS = 60;
/** Report intervals in a day: a day's uptime is its intervals with a report over this. */
export const INTERVALS_PER_DAY = 86_400 / HEALTH_INTERVAL_SECONDS;

export type RelayServerRow = typeof relayServers.$inferSelect;

/** What the per-server gauges show (aggregates only). */
export interface RelayServerFigures {
  serverId: string;
  peers: number | null;
  activePeers: number | null;
  /** The list's version minus the version the server reported applied. */
  versionLag: number | null;
  secondsSinceReport: number | null;
  load: number | null;
}

/** Days of the tally kept: the status's 90 and today. */
const TALLY_DAYS = 91;

const intervalOf = (at: Date) => Math.floor(at.getTime() / (HEALTH_INTERVAL_SECONDS * 1000));
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** A version no higher than the list's own: a relay cannot confirm a change that was never made. */
const capped = (version: number) => sql`least(${version}::bigint, (select ${peerLog.version} from ${peerLog} where ${peerLog.id} = 1))`;

/** A relay polled `since` a version (or sent its ETag): it has applied that version. */
export async function confirmVersion(db: Db, serverId: string, version: number): Promise<void> {
  await db
    .insert(relayServers)
    .values({ serverId, confirmedVersion: sql`${capped(version)}` as unknown as number })
    .onConflictDoUpdate({
      target: relayServers.serverId,
      set: { confirmedVersion: sql`greatest(${relayServers.confirmedVersion}, ${capped(version)})` },
      // Most polls confirm what was confirmed already: no write then.
      setWhere: sql`${relayServers.confirmedVersion} < ${capped(version)}`,
    });
}

/**
 * Keeps the server's latest report in place of the one before, confirms its versionApplied, and counts the
 * report's interval once in the day's tally.
 */
export async function recordHealth(db: Db, serverId: string, report: RelayHealthReport, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(relayServers).values({ serverId }).onConflictDoNothing();
    const [before] = await tx.select({ lastInterval: relayServers.lastInterval }).from(relayServers).where(eq(relayServers.serverId, serverId)).for('update');
    const interval = intervalOf(now);
    await tx
      .update(relayServers)
      .set({
        reportedAt: now,
        firstReportedAt: sql`coalesce(${relayServers.firstReportedAt}, ${now.toISOString()}::timestamptz)` as unknown as Date,
        versionApplied: report.versionApplied,
        peers: report.peers,
        activePeers: report.activePeers,
        uptimeSeconds: report.uptimeSeconds,
        agentVersion: report.agentVersion,
        lastInterval: interval,
        confirmedVersion: sql`greatest(${relayServers.confirmedVersion}, ${capped(report.versionApplied)})`,
      })
      .where(eq(relayServers.serverId, serverId));
    if (before?.lastInterval !== interval) {
      // The status shows 90 days: older days of the tally go.
      await tx.delete(relayUptimeDays).where(and(eq(relayUptimeDays.serverId, serverId), lt(relayUptimeDays.day, dayOf(new Date(now.getTime() - TALLY_DAYS * 86_400_000)))));
      await tx
        .insert(relayUptimeDays)
        .values({ serverId, day: dayOf(now), intervals: 1 })
        .onConflictDoUpdate({
          target: [relayUptimeDays.serverId, relayUptimeDays.day],
          set: { intervals: sql`least(${relayUptimeDays.intervals} + 1, ${INTERVALS_PER_DAY})` },
        });
    }
  });
}

/** Every server the API has heard of, with the list's current version. */
export async function relayServerStates(db: Db): Promise<{ version: number; servers: RelayServerRow[] }> {
  const [log] = await db.select({ version: peerLog.version }).from(peerLog).where(eq(peerLog.id, 1));
  const servers = await db.select().from(relayServers);
  return { version: log?.version ?? 0, servers };
}

/** The daily tally from `fromDay` (YYYY-MM-DD) on, per server and day. */
export async function uptimeDays(db: Db, fromDay: string): Promise<Array<{ serverId: string; day: string; intervals: number }>> {
  return db.select().from(relayUptimeDays).where(and(gte(relayUptimeDays.day, fromDay)));
}

/** The peer list's current version. */
export async function currentPeerVersion(db: Db): Promise<number> {
  const [log] = await db.select({ version: peerLog.version }).from(peerLog).where(eq(peerLog.id, 1));
  return log?.version ?? 0;
}
