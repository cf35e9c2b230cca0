/**
 * /status reads the API's answer without zod (src/services/servers-status.ts, issue 48 item 2): its
 * hand-written check must refuse what the contract's schema refuses, so a malformed answer is "cannot be
 * fetched" on the page rather than a board drawn from half a server, and accept what the schema accepts.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serversStatusAnswerSchema, type ServerStatus, type ServersStatusAnswer } from '../../contract/relay';
import { fetchServersStatus, readServersStatus } from '../../src/services/servers-status';
import { fetchFirstFigures } from '../../src/features/status/status-first-figures';

const server: ServerStatus = {
  id: 'ng-los-1',
  country: 'NG',
  countryName: 'Nigeria',
  city: 'Lagos',
  online: true,
  maintenance: false,
  load: 37.5,
  lastReportAt: '2026-11-28T09:59:30.000Z',
  uptime30d: 99.98,
  uptime90d: null,
  days: [null, 0, 0.25, 1],
};
const answer: ServersStatusAnswer = { servers: [server], updatedAt: '2026-11-28T10:00:00.000Z' };
const withServer = (fields: Record<string, unknown>) => ({ ...answer, servers: [{ ...server, ...fields }] });
const without = (field: keyof ServerStatus) => ({ ...answer, servers: [Object.fromEntries(Object.entries(server).filter(([key]) => key !== field))] });

/** What the contract's schema makes of a value: the answer it parses to, or null when it refuses it. */
const bySchema = (json: unknown) => {
  const parsed = serversStatusAnswerSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
};

const MALFORMED: Array<[string, unknown]> = [
  ['not an object', 'All servers online'],
  ['null', null],
  ['an array', [server]],
  ['no servers', { updatedAt: answer.updatedAt }],
  ['servers not a list', { servers: server, updatedAt: answer.updatedAt }],
  ['no updatedAt', { servers: [server] }],
  ['updatedAt a number', { ...answer, updatedAt: 1_764_324_000_000 }],
  ['a server that is null', { ...answer, servers: [null] }],
  ['a server without its id', without('id')],
  ['a server without its city', without('city')],
  ['a server without its days', without('days')],
  ['online as a word', withServer({ online: 'yes' })],
  ['maintenance missing', without('maintenance')],
  ['load above 100', withServer({ load: 101 })],
  ['load below 0', withServer({ load: -1 })],
  ['load as text', withServer({ load: '37%' })],
  ['lastReportAt a number', withServer({ lastReportAt: 5 })],
  ['lastReportAt missing', without('lastReportAt')],
  ['uptime above 100', withServer({ uptime30d: 100.1 })],
  ['uptime missing', without('uptime90d')],
  ['a day above 1', withServer({ days: [1, 2] })],
  ['a day as text', withServer({ days: ['up'] })],
  ['days not a list', withServer({ days: 1 })],
  ['one good server and one broken', { ...answer, servers: [server, { ...server, country: null }] }],
];

describe("/status's check of the status answer, without zod", () => {
  it('accepts the contract\'s answer, as the schema does', () => {
    expect(readServersStatus(answer)).toEqual(answer);
    expect(readServersStatus({ servers: [], updatedAt: answer.updatedAt })).toEqual({ servers: [], updatedAt: answer.updatedAt });
  });

  it('keeps only the fields the contract names, as the schema does', () => {
    const extra = withServer({ confirmedVersion: 3, listVersion: 4 });
    expect(readServersStatus({ ...extra, debug: true })).toEqual(answer);
    expect(readServersStatus({ ...extra, debug: true })).toEqual(bySchema({ ...extra, debug: true }));
  });

  for (const [name, json] of MALFORMED) {
    it(`refuses a malformed answer: ${name}`, () => {
      expect(bySchema(json), 'the contract refuses it too').toBeNull();
      expect(readServersStatus(json)).toBeNull();
    });
  }

  it('agrees with the schema on answers with any field good, bad or missing', () => {
    // Each field mostly good, sometimes bad or missing: an answer then often differs from a good one in a single
    // field, so each field's own check decides it, in both the schema and the hand-written check.
    const field = <T,>(good: fc.Arbitrary<T>, ...bad: unknown[]) =>
      fc.oneof({ arbitrary: good, weight: 12 }, { arbitrary: fc.constantFrom(undefined, ...bad), weight: 1 });
    const text = field(fc.string(), null, 7, true);
    const flag = field(fc.boolean(), 'true', 0, null);
    const number = (min: number, max: number) =>
      fc.oneof({ arbitrary: fc.double({ min, max, noNaN: true }), weight: 12 }, { arbitrary: fc.oneof(fc.double({ noNaN: true }), fc.constantFrom(undefined, '50', null)), weight: 1 });
    const orNull = <T,>(value: fc.Arbitrary<T>) => fc.oneof(value, fc.constant(null));
    const serverLike = fc.record({
      id: text,
      country: text,
      countryName: text,
      city: text,
      online: flag,
      maintenance: flag,
      load: number(0, 100),
      lastReportAt: orNull(text),
      uptime30d: orNull(number(0, 100)),
      uptime90d: orNull(number(0, 100)),
      days: field(fc.array(orNull(number(0, 1)), { maxLength: 4 }), 0.5, 'up'),
      extra: fc.anything(),
    });
    const answerLike = fc.record({ servers: field(fc.array(serverLike, { maxLength: 3 }), null, server), updatedAt: text });
    let accepted = 0;
    fc.assert(
      fc.property(answerLike, (json) => {
        const expected = bySchema(json);
        if (expected) accepted += 1;
        expect(readServersStatus(json)).toEqual(expected);
      }),
      { numRuns: 3_000 },
    );
    // Both outcomes were tried often.
    expect(accepted).toBeGreaterThan(300);
    expect(accepted).toBeLessThan(2_700);
  });
});

describe('fetching the status without the API client', () => {
  afterEach(() => vi.unstubAllGlobals());

  const answering = (body: unknown, status = 200) => vi.fn(async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status }));

  it('asks the public endpoint and gives back the checked answer', async () => {
    const fetch = answering({ ...answer, debug: true });
    vi.stubGlobal('fetch', fetch);
    await expect(fetchServersStatus()).resolves.toEqual(answer);
    expect(fetch).toHaveBeenCalledWith('/api/vpn/servers/status', expect.objectContaining({ signal: expect.any(AbortSignal) }));
  });

  it('treats a malformed answer, a refusal, a body that is not JSON and no answer alike: it cannot be fetched', async () => {
    for (const fetch of [
      answering(withServer({ load: 'high' })),
      answering({ error: 'Too many requests' }, 429),
      answering('<html>Bad gateway</html>', 502),
      answering('not json'),
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    ]) {
      vi.stubGlobal('fetch', fetch);
      await expect(fetchServersStatus()).rejects.toThrow('Could not load the server status');
    }
  });

  it("the page's first figures: the answer with when it arrived, or failed for a malformed answer", async () => {
    vi.stubGlobal('fetch', answering(answer));
    const first = await fetchFirstFigures();
    expect(first).toEqual({ outcome: 'received', reading: { status: answer, receivedAt: expect.any(Number) } });
    vi.stubGlobal('fetch', answering({ servers: [{ id: 'us-nyc-1' }], updatedAt: answer.updatedAt }));
    await expect(fetchFirstFigures()).resolves.toEqual({ outcome: 'failed' });
  });
});
