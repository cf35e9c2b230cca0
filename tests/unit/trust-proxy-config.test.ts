/** TRUST_PROXY: a hop count or a list of proxies; parsing only (production's refusal of `true`: production-config.test.ts). */
import { describe, expect, test } from 'vitest';
import { fastifyTrustProxy, loadConfig } from '../../server/config';

describe('TRUST_PROXY', () => {
  test('unset or false trusts no X-Forwarded-For', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  test('a hop count trusts that many proxies nearest the API', () => {
    const config = loadConfig({ TRUST_PROXY: '1' });
    expect(config.trustProxy).toBe(1);
    const trust = fastifyTrustProxy(config.trustProxy) as (address: string, hop: number) => boolean;
    expect([trust('10.0.0.7', 0), trust('203.0.113.9', 1)]).toEqual([true, false]);
  });

  test('a list of proxy addresses and ranges', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.10,::1,loopback' }).trustProxy).toEqual(['10.0.0.0/8', '192.0.2.10', '::1', 'loopback']);
  });

  test.each(['10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/8', 'yes'])('"%s" is refused with what to write instead', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/Invalid configuration: TRUST_PROXY: .* \(use e\.g\. 1 or 10\.0\.0\.0\/8/);
  });

  test('true parses as "believe every entry" (production refuses it: server/production-checks.ts)', () => {
    expect(loadConfig({ TRUST_PROXY: 'true', NODE_ENV: 'development' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'true', NODE_ENV: 'production' }).trustProxy).toBe(true);
  });
});
