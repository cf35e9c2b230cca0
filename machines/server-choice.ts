/**
 * The server choice of "Add a device" and "Replace key" (issue 48 item 3, design §7g): the server list joined
 * with the public status, and the server to preselect. Pure: no calls, no clock.
 */
import type { VpnServer } from '../contract/api';
import type { ServerStatus } from '../contract/relay';

type ServerState = 'online' | 'offline' | 'maintenance';

/** A server of the list; `status` is absent when its state is not known (the status could not be loaded). */
export interface ServerChoice extends VpnServer {
  status?: { state: ServerState; load: number };
}

/** Each server with its state and load; `status` null (it could not be loaded) leaves every state unknown. */
export function joinServerStatus(servers: VpnServer[], status: ServerStatus[] | null): ServerChoice[] {
  if (!status) return servers;
  const byId = new Map(status.map((each) => [each.id, each]));
  return servers.map((server) => {
    const known = byId.get(server.id);
    // A server the status does not list has sent no report: it cannot be said to be online.
    if (!known) return { ...server, status: { state: 'offline' as const, load: 0 } };
    const state: ServerState = known.maintenance ? 'maintenance' : known.online ? 'online' : 'offline';
    return { ...server, status: { state, load: known.load } };
  });
}

/** Whether the server is known to be offline or under maintenance: the form warns before it is chosen. */
export function isDown(server: ServerChoice): boolean {
  return server.status !== undefined && server.status.state !== 'online';
}

/**
 * The server to preselect: the least-loaded online server of `country` (of every country when none is given
 * or none of that country is online); ties go to the list's order. With none online (or no state known), the
 * first server: the form says when it is down.
 */
export function preselectServer(servers: ServerChoice[], country: string | null = null): string | null {
  const online = servers.filter((each) => each.status?.state === 'online');
  const inCountry = online.filter((each) => each.country === country);
  const pool = inCountry.length > 0 ? inCountry : online;
  let best: ServerChoice | null = null;
  for (const each of pool) if (!best || each.status!.load < best.status!.load) best = each;
  return best?.id ?? servers[0]?.id ?? null;
}
