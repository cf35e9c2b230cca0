/**
 * Every minute (RELAY_IDLE_RESET_SECONDS), peers whose last handshake is older than 180 s are removed and set
 * again with the same allowed IPs, so the interface forgets their endpoint and handshake time: what a seized
 * server holds is who may connect, not where from or when. Peers that never connected have neither and are
 * left alone. Returns the number reset (the only thing logged).
 */
import type { Peer } from '../contract/relay.ts';
import { allowedIpsOf } from './reconciler.ts';
import type { WgDriver } from './wg-driver.ts';

export async function resetIdlePeers(wg: WgDriver, wanted: ReadonlyMap<string, Peer>, idleAfterSeconds: number): Promise<number> {
  const idle: Peer[] = [];
  for (const [publicKey, peer] of await wg.peers(idleAfterSeconds)) {
    const listed = wanted.get(publicKey);
    if (peer.activity === 'idle' && listed) idle.push(listed);
  }
  if (idle.length === 0) return 0;
  await wg.apply(idle.map((peer) => ({ kind: 'remove', publicKey: peer.publicKey })));
  await wg.apply(idle.map((peer) => ({ kind: 'set', publicKey: peer.publicKey, allowedIps: allowedIpsOf(peer) })));
  return idle.length;
}
