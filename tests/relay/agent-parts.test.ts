/**
 * The relay agent's pure parts (issue 47, item 1): the `wg show dump` reader keeps only keys, allowed IPs and
 * an activity class; the reconciler's per-peer operations; the mass-removal share; exponential backoff with
 * jitter; the configuration read from the environment.
 */
import { describe, expect, test } from 'vitest';
import type { Peer } from '../../contract/relay.ts';
import { backoffDelayMs } from '../../relay/backoff.ts';
import { agentConfigFrom } from '../../relay/config.ts';
import { allowedIpsOf, earliestExpiry, reconcile, removalShare, unexpiredPeers } from '../../relay/reconciler.ts';
import { countActive, parseWgDump } from '../../relay/wg-dump.ts';

const NOW = 1_800_000_000;
const dump = [
  'cHJpdmF0ZQ==\tc2VydmVy\t51820\toff',
  'a2V5LWFjdGl2ZQ==\t(none)\t198.51.100.7:40000\t10.64.0.2/32,fd76:6569:6c00::2/128\t' + (NOW - 10) + '\t91234\t95678\t25',
  'a2V5LWlkbGU=\t(none)\t198.51.100.8:40001\tfd76:6569:6c00::3/128,10.64.0.3/32\t' + (NOW - 181) + '\t1\t2\toff',
  'a2V5LW5ldmVy\t(none)\t(none)\t(none)\t0\t0\t0\toff',
  '',
].join('\n');

const peer = (publicKey: string, n: number, expiresAt = '2099-01-01T00:00:00Z'): Peer => ({ publicKey, ipv4Address: `10.64.0.${n}`, ipv6Address: `fd76:6569:6c00:0:0:0:0:${n}`, expiresAt });

describe('the dump reader', () => {
  test('keeps keys, sorted allowed IPs and active / idle / never, and nothing else', () => {
    const peers = parseWgDump(dump, NOW);
    expect([...peers]).toEqual([
      ['a2V5LWFjdGl2ZQ==', { allowedIps: ['10.64.0.2/32', 'fd76:6569:6c00::2/128'], activity: 'active' }],
      ['a2V5LWlkbGU=', { allowedIps: ['10.64.0.3/32', 'fd76:6569:6c00::3/128'], activity: 'idle' }],
      ['a2V5LW5ldmVy', { allowedIps: [], activity: 'never' }],
    ]);
    const kept = JSON.stringify([...peers]);
    for (const dropped of ['cHJpdmF0ZQ==', '198.51.100', '91234', '95678', String(NOW - 10)]) expect(kept).not.toContain(dropped);
    expect(countActive(peers)).toBe(1);
  });
});

describe('the reconciler', () => {
  test('removes strangers, sets missing or changed peers, leaves equal ones alone', () => {
    const wanted = new Map([peer('a2V5LWFjdGl2ZQ==', 2), peer('a2V5LWlkbGU=', 9), peer('bmV3', 4)].map((p) => [p.publicKey, p]));
    expect(reconcile(wanted, parseWgDump(dump, NOW))).toEqual([
      { kind: 'remove', publicKey: 'a2V5LW5ldmVy' },
      { kind: 'set', publicKey: 'a2V5LWlkbGU=', allowedIps: ['10.64.0.9/32', 'fd76:6569:6c00::9/128'] },
      { kind: 'set', publicKey: 'bmV3', allowedIps: ['10.64.0.4/32', 'fd76:6569:6c00::4/128'] },
    ]);
    expect(reconcile(new Map(), new Map())).toEqual([]);
    expect(allowedIpsOf({ ipv4Address: '10.64.0.2', ipv6Address: 'FD76:6569:6C00:0000::2' })).toEqual(['10.64.0.2/32', 'fd76:6569:6c00::2/128']);
  });

  test('drops expired peers, finds the earliest expiry, and calls removing more than half a mass removal', () => {
    const [a, b, c, d] = ['A', 'E', 'I', 'M'].map((letter) => `${letter.repeat(43)}=`);
    const list = [peer(a!, 1, '2026-01-01T00:00:00Z'), peer(b!, 2, '2026-01-01T00:00:01Z'), peer(c!, 3, 'not a date')];
    expect([...unexpiredPeers(list, Date.parse('2026-01-01T00:00:00Z')).keys()]).toEqual([b]);
    // A peer `wg` could not take is left out, so it never fails the call of the peers batched with it.
    const malformed = [peer('not-a-key', 4), { ...peer(d!, 5), ipv6Address: 'fd76:6569:6c00::10000' }, { ...peer(d!, 6), ipv4Address: '10.64.0.256' }, peer(d!, 7)];
    expect([...unexpiredPeers(malformed, 0).values()].map((each) => each.ipv4Address)).toEqual(['10.64.0.7']);
    expect(earliestExpiry(list)).toBe(Date.parse('2026-01-01T00:00:00Z'));
    expect(earliestExpiry([])).toBeNull();
    const current = new Map([['a', 1], ['b', 1], ['c', 1], ['d', 1]]);
    expect(removalShare(current, new Map([['a', 1], ['b', 1]]))).toEqual({ removed: 2, mass: false });
    expect(removalShare(current, new Map([['a', 1]]))).toEqual({ removed: 3, mass: true });
    expect(removalShare(current, new Map())).toEqual({ removed: 4, mass: true });
    expect(removalShare(new Map(), new Map())).toEqual({ removed: 0, mass: false });
  });
});

test('backoff doubles up to the cap, with jitter between half and the whole', () => {
  const options = { baseMs: 1000, maxMs: 60_000 };
  expect([1, 2, 3, 4, 7, 8, 50].map((failures) => backoffDelayMs(failures, options, () => 1))).toEqual([1000, 2000, 4000, 8000, 60_000, 60_000, 60_000]);
  expect(backoffDelayMs(3, options, () => 0)).toBe(2000);
  for (let i = 0; i < 100; i += 1) {
    const delay = backoffDelayMs(5, options);
    expect(delay).toBeGreaterThanOrEqual(8000);
    expect(delay).toBeLessThanOrEqual(16_000);
  }
});

test('the configuration: three required variables, tuning with defaults', () => {
  expect(() => agentConfigFrom({})).toThrow('missing RELAY_API_URL, RELAY_TOKEN, RELAY_INTERFACE');
  const config = agentConfigFrom({ RELAY_API_URL: 'https://veil.example/some/path', RELAY_TOKEN: 't', RELAY_INTERFACE: 'wg0' });
  expect(config).toMatchObject({ apiUrl: 'https://veil.example', wgCommand: 'wg', pollWaitSeconds: 25, idleResetSeconds: 60, idleAfterSeconds: 180, backoffMaxMs: 60_000 });
  expect(() => agentConfigFrom({ RELAY_API_URL: 'https://veil.example', RELAY_TOKEN: 't', RELAY_INTERFACE: 'wg0', RELAY_POLL_WAIT_SECONDS: '30' })).toThrow('RELAY_POLL_WAIT_SECONDS');
});
