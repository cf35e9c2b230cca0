/**
 * What to do to the interface so it holds exactly the wanted peers: per-peer operations, never a whole
 * configuration (which would drop every session). Pure.
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { Peer } from '../contract/relay.ts';
import type { InterfacePeer } from './wg-dump.ts';

export type PeerOperation = { kind: 'set'; publicKey: string; allowedIps: string[] } | { kind: 'remove'; publicKey: string };

/** An IPv6 address in the short form WireGuard prints (RFC 5952), so addresses compare as text. */
function canonicalIpv6(address: string): string {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

/** The allowed IPs a listed peer gets: its two tunnel addresses, sorted as parseWgDump sorts them. */
export function allowedIpsOf(peer: Pick<Peer, 'ipv4Address' | 'ipv6Address'>): string[] {
  return [`${peer.ipv4Address}/32`, `${canonicalIpv6(peer.ipv6Address)}/128`].sort();
}

export function reconcile(wanted: ReadonlyMap<string, Peer>, actual: ReadonlyMap<string, InterfacePeer>): PeerOperation[] {
  const operations: PeerOperation[] = [];
  for (const publicKey of actual.keys()) if (!wanted.has(publicKey)) operations.push({ kind: 'remove', publicKey });
  for (const [publicKey, peer] of wanted) {
    const allowedIps = allowedIpsOf(peer);
    const present = actual.get(publicKey);
    if (!present || present.allowedIps.join(',') !== allowedIps.join(',')) operations.push({ kind: 'set', publicKey, allowedIps });
  }
  return operations;
}

const WIREGUARD_KEY = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

/**
 * Whether `wg` can take the peer: a WireGuard key and one address of each family. The contract's schema says
 * only "a string"; one malformed peer must not fail the `wg set` call of every peer batched with it.
 */
export function usablePeer(peer: Peer): boolean {
  return usableKey(peer.publicKey) && isIPv4(peer.ipv4Address) && isIPv6(peer.ipv6Address);
}

/** A WireGuard public key as `wg` reads it: base64 of 32 bytes. */
export const usableKey = (publicKey: string) => WIREGUARD_KEY.test(publicKey);

/** The usable peers of a list still within their expiresAt at `nowMs` (an unreadable date counts as expired). */
export function unexpiredPeers(peers: readonly Peer[], nowMs: number): Map<string, Peer> {
  const wanted = new Map<string, Peer>();
  for (const peer of peers) if (Date.parse(peer.expiresAt) > nowMs && usablePeer(peer)) wanted.set(peer.publicKey, peer);
  return wanted;
}

/** How many of the current peers a new list leaves out, and whether that is more than half (a mass removal). */
export function removalShare(current: ReadonlyMap<string, unknown>, next: ReadonlyMap<string, unknown>): { removed: number; mass: boolean } {
  let removed = 0;
  for (const publicKey of current.keys()) if (!next.has(publicKey)) removed += 1;
  return { removed, mass: current.size > 0 && removed * 2 > current.size };
}

/** The earliest expiresAt among the peers, in ms, or null when there are none. */
export function earliestExpiry(peers: Iterable<Peer>): number | null {
  let earliest: number | null = null;
  for (const peer of peers) {
    const at = Date.parse(peer.expiresAt);
    if (Number.isFinite(at) && (earliest === null || at < earliest)) earliest = at;
  }
  return earliest;
}
