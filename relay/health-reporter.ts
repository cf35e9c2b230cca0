/**
 * The aggregate the agent reports (POST /api/relay/v1/health): the version applied, how many peers the
 * interface holds and how many of them had a handshake in the last 180 s, as counts; never a key.
 */
import type { RelayHealthReport } from '../contract/relay.ts';
import { countActive } from './wg-dump.ts';
import type { WgDriver } from './wg-driver.ts';

const AGENT_VERSION = 'veil-relay-agent/1';

export async function healthReport(wg: WgDriver, versionApplied: number, uptimeSeconds: number, idleAfterSeconds: number): Promise<RelayHealthReport> {
  const peers = await wg.peers(idleAfterSeconds);
  return { versionApplied, peers: peers.size, activePeers: countActive(peers), uptimeSeconds: Math.max(0, Math.floor(uptimeSeconds)), agentVersion: AGENT_VERSION };
}
