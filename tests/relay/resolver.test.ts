/**
 * The resolver a relay runs on its tunnel gateway addresses (relay/resolver.ts, issue 47 item 3): forwards a
 * question to the upstream and the answer back to who asked, under their own id; writes nothing (no query
 * log: the process's stdout and stderr stay empty while it answers). On loopback only.
 */
import { afterAll, expect, test, vi } from 'vitest';
import { parseUpstream, startResolver } from '../../relay/resolver.ts';
import { freePort } from '../support/stack.ts';
import { lookupA, startTinyDns } from './support/tiny-dns.ts';

const closers: Array<() => unknown> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

test('forwards questions to the upstream and answers back, logging nothing', async () => {
  const upstreamPort = await freePort();
  const upstream = await startTinyDns('host.internet.test', '203.0.113.80', upstreamPort, '127.0.0.1');
  closers.push(() => upstream.close());
  const port = await freePort();
  const resolver = await startResolver({ listen: ['127.0.0.1'], port, upstream: { address: '127.0.0.1', port: upstreamPort } });
  closers.push(() => resolver.close());
  const stdout = vi.spyOn(process.stdout, 'write');
  const stderr = vi.spyOn(process.stderr, 'write');
  const console_ = vi.spyOn(console, 'log');
  expect(await lookupA('host.internet.test', '127.0.0.1', port)).toBe('203.0.113.80');
  expect(await lookupA('nowhere.internet.test', '127.0.0.1', port)).toBeNull();
  const answers = await Promise.all(Array.from({ length: 20 }, () => lookupA('HOST.internet.test', '127.0.0.1', port)));
  expect(answers.every((answer) => answer === '203.0.113.80')).toBe(true);
  expect([stdout.mock.calls, stderr.mock.calls, console_.mock.calls]).toEqual([[], [], []]);
  vi.restoreAllMocks();
});

test('the upstream is an address with an optional port', () => {
  expect(parseUpstream('9.9.9.9')).toEqual({ address: '9.9.9.9', port: 53 });
  expect(parseUpstream('10.0.0.2:5353')).toEqual({ address: '10.0.0.2', port: 5353 });
  expect(parseUpstream('[2620:fe::fe]:53')).toEqual({ address: '2620:fe::fe', port: 53 });
  expect(() => parseUpstream('dns.example')).toThrow('must be an IP address');
});
