/**
 * Each catalogue server's state as the public status (issue 48, item 1) and the metrics (issue 47, item 2)
 * show it, from the servers' own reports (server/domain/devices/relay-servers.ts): online (a report within three
 * report intervals), maintenance (the catalogue), load (active peers over capacity), measured uptime from
 * the daily tally. Pure functions of what was read and the time: aggregates only, never anything per customer.
 */
import type { ServersStatusAnswer, ServerStatus } from '../../contract/relay.ts';
import { HEALTH_INTERVAL_SECONDS, INTERVALS_PER_DAY, type RelayServerFigures, type RelayServerRow } from '../domain/devices/relay-servers.ts';
import type { CatalogueServer } from './catalogue.ts';

/** A server is online while its last report is at most this old: three report intervals. */
const ONLINE_WITHIN_MS = 3 * HEALTH_INTERVAL_SECONDS * 1000;
/** Days the status shows (oldest first). */
const STATUS_DAYS = 90;

const DAY_MS = 86_400_000;
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** Active peers over capacity, in percent (0 to 100, whole). */
function loadOf(activePeers: number | null | undefined, capacity: number): number {
  if (!activePeers) return 0;
  return Math.min(100, Math.round((activePeers / capacity) * 100));
}

/** The per-server gauges of GET /api/metrics: every catalogue server, whether it reported or not. */
export async function relayServerFigures(
  config: { vpnServers: { servers: CatalogueServer[] } },
  read: () => Promise<{ version: number; servers: RelayServerRow[] }>,
  now = new Date(),
): Promise<RelayServerFigures[]> {
  const { version, servers } = await read();
  const byId = new Map(servers.map((row) => [row.serverId, row]));
  return config.vpnServers.servers.map((server) => {
    const row = byId.get(server.id);
    return {
      serverId: server.id,
      peers: row?.peers ?? null,
      activePeers: row?.activePeers ?? null,
      versionLag: row?.versionApplied == null ? null : Math.max(0, version - row.versionApplied),
      secondsSinceReport: row?.reportedAt ? Math.max(0, Math.round((now.getTime() - row.reportedAt.getTime()) / 1000)) : null,
      load: row?.reportedAt ? loadOf(row.activePeers, server.capacity) : null,
    };
  });
}

/** The first day (YYYY-MM-DD) the status shows at `now`. */
export function statusDaysFrom(now: Date): string {
  return dayOf(new Date(now.getTime() - (STATUS_DAYS - 1) * DAY_MS));
}

/** Percent with three decimals (99.931), or null with nothing measured. */
const percent = (up: number, possible: number) => (possible > 0 ? Math.round((up / possible) * 100_000) / 1000 : null);

/** A report interval's number (minutes since the epoch). */
const intervalOf = (at: number) => Math.floor(at / (HEALTH_INTERVAL_SECONDS * 1000));

/**
 * The public status of every catalogue server at `now`. `tally`: the daily counts of the last STATUS_DAYS
 * days. A server is measured from its first report (`firstReportedAt`; for a tally without it, from the
 * midnight before its first counted day): a day before that is null (not tracked yet), the day of the first
 * report counts the intervals from that report on, today the intervals passed so far, and a tracked day with
 * no count was down all day. A server that never reported has no percentage.
 */
export function serversStatus(
  servers: CatalogueServer[],
  states: RelayServerRow[],
  tally: Array<{ serverId: string; day: string; intervals: number }>,
  now: Date,
): ServersStatusAnswer {
  const stateOf = new Map(states.map((row) => [row.serverId, row]));
  const days = Array.from({ length: STATUS_DAYS }, (_, index) => dayOf(new Date(now.getTime() - (STATUS_DAYS - 1 - index) * DAY_MS)));
  const nowInterval = intervalOf(now.getTime());
  const counted = new Map<string, Map<string, number>>();
  for (const row of tally) {
    let byDay = counted.get(row.serverId);
    if (!byDay) counted.set(row.serverId, (byDay = new Map()));
    byDay.set(row.day, row.intervals);
  }

  const statusOf = (server: CatalogueServer): ServerStatus => {
    const row = stateOf.get(server.id);
    const reportedAt = row?.reportedAt ?? null;
    const online = reportedAt !== null && now.getTime() - reportedAt.getTime() <= ONLINE_WITHIN_MS;
    const byDay = counted.get(server.id) ?? new Map<string, number>();
    const firstDay = [...byDay.keys()].sort()[0];
    const trackedFrom = row?.firstReportedAt ? row.firstReportedAt.getTime() : firstDay === undefined ? null : Date.parse(`${firstDay}T00:00:00Z`);
    const measured = days.map((day) => {
      if (trackedFrom === null) return null;
      const dayStart = Date.parse(`${day}T00:00:00Z`);
      const from = Math.max(intervalOf(dayStart), intervalOf(trackedFrom));
      const to = Math.min(intervalOf(dayStart + DAY_MS) - 1, nowInterval);
      if (to < from) return null;
      const possible = Math.min(to - from + 1, INTERVALS_PER_DAY);
      return { up: Math.min(byDay.get(day) ?? 0, possible), possible };
    });
    const over = (count: number) => {
      const window = measured.slice(-count).filter((day) => day !== null);
      return percent(
        window.reduce((sum, day) => sum + day.up, 0),
        window.reduce((sum, day) => sum + day.possible, 0),
      );
    };
    return {
      id: server.id,
      country: server.country,
      countryName: server.countryName,
      city: server.city,
      online,
      maintenance: server.maintenance,
      load: online ? loadOf(row?.activePeers, server.capacity) : 0,
      lastReportAt: reportedAt ? reportedAt.toISOString() : null,
      uptime30d: over(30),
      uptime90d: over(STATUS_DAYS),
      days: measured.map((day) => (day === null ? null : Math.round((day.up / day.possible) * 10_000) / 10_000)),
    };
  };
  return { servers: servers.map(statusOf), updatedAt: now.toISOString() };
}
