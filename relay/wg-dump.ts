/**
 * Reads `wg show <if> dump` and keeps only what the agent may know: each peer's public key, its allowed IPs
 * and whether it is active, idle or never connected. The other columns (the interface's private key, preshared
 * keys, endpoints, byte counts, the handshake time itself) are dropped as each line is split, never stored.
 */
type PeerActivity = 'active' | 'idle' | 'never';

export interface InterfacePeer {
  /** Allowed IPs as WireGuard prints them, sorted. */
  allowedIps: string[];
  /** active: a handshake within `idleAfterSeconds`; idle: an older one; never: none since the peer was set. */
  activity: PeerActivity;
}

export function parseWgDump(dump: string, nowSeconds: number, idleAfterSeconds = 180): Map<string, InterfacePeer> {
  const peers = new Map<string, InterfacePeer>();
  const lines = dump.split('\n');
  // Line 1 is the interface itself (private key, public key, port, fwmark): not read.
  for (const line of lines.slice(1)) {
    if (line.trim() === '') continue;
    const columns = line.split('\t');
    // public-key, preshared-key, endpoint, allowed-ips, latest-handshake, transfer-rx, transfer-tx, keepalive
    const publicKey = columns[0];
    const allowed = columns[3];
    const handshake = Number(columns[4] ?? 0);
    columns.length = 0;
    if (!publicKey || allowed === undefined) continue;
    const activity: PeerActivity = !(handshake > 0) ? 'never' : nowSeconds - handshake <= idleAfterSeconds ? 'active' : 'idle';
    peers.set(publicKey, { allowedIps: allowed === '(none)' || allowed === '' ? [] : allowed.split(',').sort(), activity });
  }
  return peers;
}

export function countActive(peers: Map<string, InterfacePeer>): number {
  let active = 0;
  for (const peer of peers.values()) if (peer.activity === 'active') active += 1;
  return active;
}
