/**
 * Tunnel address pools (issue 29, item 2): each WireGuard key gets an IPv4 /32 from a private pool and an
 * IPv6 /128 from a ULA pool. An address is drawn at random from its pool and kept only if the database
 * takes it: the unique constraints decide, so two instances drawing the same address at once cannot
 * both keep it (server/domain/devices/wireguard-devices.ts retries with another draw).
 */
import { randomBytes } from 'node:crypto';
import ipaddr from 'ipaddr.js';

export interface AddressPool {
  /** As configured, e.g. 10.64.0.0/10. */
  cidr: string;
  family: 4 | 6;
  /** The first and last offsets handed out (the network address, the gateway's .1 and broadcast are not). */
  firstOffset: bigint;
  lastOffset: bigint;
  base: bigint;
}

export interface AddressPools {
  ipv4: AddressPool;
  ipv6: AddressPool;
}

const bitsOf = (family: 4 | 6) => (family === 4 ? 32 : 128);

function toBigInt(address: ipaddr.IPv4 | ipaddr.IPv6): bigint {
  return address.toByteArray().reduce((value, byte) => (value << 8n) | BigInt(byte), 0n);
}

function fromBigInt(value: bigint, family: 4 | 6): string {
  const bytes: number[] = [];
  for (let index = 0; index < bitsOf(family) / 8; index += 1) {
    bytes.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  return ipaddr.fromByteArray(bytes).toString();
}

/**
 * A pool from its CIDR: IPv4 must be private (RFC 1918 or the shared 100.64.0.0/10), IPv6 unique local
 * (fc00::/7); both leave room for at least 16 addresses. Throws one line saying what is wrong.
 */
export function parseAddressPool(cidr: string, family: 4 | 6): AddressPool {
  let parsed: [ipaddr.IPv4 | ipaddr.IPv6, number];
  try {
    parsed = ipaddr.parseCIDR(cidr.trim());
  } catch {
    throw new Error(`"${cidr}" is not a CIDR range`);
  }
  const [address, prefix] = parsed;
  if ((address.kind() === 'ipv4' ? 4 : 6) !== family) throw new Error(`"${cidr}" is not an IPv${family} range`);
  const range = address.range();
  if (family === 4 && range !== 'private' && range !== 'carrierGradeNat') throw new Error(`"${cidr}" is not a private IPv4 range`);
  if (family === 6 && range !== 'uniqueLocal') throw new Error(`"${cidr}" is not a unique local IPv6 range (fc00::/7)`);
  const hostBits = BigInt(bitsOf(family) - prefix);
  if (hostBits < 4n) throw new Error(`"${cidr}" is too small: a pool needs at least 16 addresses`);
  const size = 1n << hostBits;
  const base = toBigInt(address) & ~(size - 1n);
  // Offset 0 is the network, 1 the servers' own address in the tunnel; the last is IPv4's broadcast.
  return { cidr: cidr.trim(), family, base, firstOffset: 2n, lastOffset: size - 2n };
}

/** A random address of the pool, in its canonical text form. */
export function drawAddress(pool: AddressPool): string {
  const span = pool.lastOffset - pool.firstOffset + 1n;
  const random = BigInt(`0x${randomBytes(16).toString('hex')}`);
  return fromBigInt(pool.base + pool.firstOffset + (random % span), pool.family);
}
