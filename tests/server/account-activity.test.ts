/**
 * Account activity (issue 30, item 6): each event a customer can cause is recorded with the change it
 * tells of, and POST /api/account/activity answers the account's own history, newest first, with the day
 * only: no time of day, no address, no user agent.
 */
import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { call, nameVerifier } from '../support/server-harness';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

describeApi('account activity', { layer: 'http', verifier: nameVerifier, env: { RATE_LIMIT_SCALE: '100', RATE_LIMIT_SIGN_IN: '1000' } }, (api) => {
  async function subscribed(name: string) {
    const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
    const opened = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: name, email: `${name}@example.com` });
    await api.app.inject({ method: 'POST', url: `${new URL(opened.body.url as string).pathname}/pay` });
    return body.sessionToken as string;
  }
  const activity = (sessionToken: string) => call(api.app, 'POST', '/api/account/activity', { sessionToken });

  test('a new desktop device, its revocation, auto-renewal off and on, and the refund, newest first', async () => {
    const sessionToken = await subscribed('ada');
    expect((await activity(sessionToken)).body).toEqual({ success: true, items: [], nextCursor: null });

    const { handoffToken } = (await call(api.app, 'POST', '/api/auth/handoff', { sessionToken })).body as { handoffToken: string };
    await call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken, deviceName: 'Ada’s laptop' });
    const [device] = (await call(api.app, 'POST', '/api/auth/devices', { sessionToken })).body.devices as Array<{ id: string }>;
    expect((await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken, deviceId: device!.id })).status).toBe(200);
    expect((await call(api.app, 'POST', '/api/subscription/cancel', { idToken: 'ada' })).status).toBe(200);
    expect((await call(api.app, 'POST', '/api/subscription/resume', { idToken: 'ada' })).status).toBe(200);
    expect((await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'ada' })).status).toBe(200);

    const answer = await activity(sessionToken);
    expect(answer.status).toBe(200);
    const items = answer.body.items as Array<{ date: string }>;
    expect(items.map(({ date: _date, ...rest }) => rest)).toEqual([
      { kind: 'refund', by: 'customer', detail: { amount: 10000, currency: 'usd' } },
      { kind: 'auto_renewal_on', by: 'customer', detail: {} },
      { kind: 'auto_renewal_off', by: 'customer', detail: {} },
      { kind: 'device_revoked', by: 'customer', detail: { deviceName: 'Ada’s laptop' } },
      { kind: 'signed_in_new_device', by: 'customer', detail: { deviceName: 'Ada’s laptop' } },
    ]);
    for (const item of items) expect(item.date).toMatch(DAY);
    expect(items[0]!.date).toBe(new Date().toISOString().slice(0, 10));

    // Only the account's own: another account's history is empty, and no session is a 401.
    const other = await subscribed('grace');
    expect((await activity(other)).body).toEqual({ success: true, items: [], nextCursor: null });
    expect(await activity('not-a-session')).toMatchObject({ status: 401, body: { success: false, code: 'session_invalid' } });
  });

  test('a refused change records nothing: a second refund, a device already revoked', async () => {
    const sessionToken = await subscribed('once');
    await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'once' });
    expect((await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'once' })).status).toBe(409);
    expect((await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken, deviceId: 'ses_unknown' })).status).toBe(404);
    expect(((await activity(sessionToken)).body.items as unknown[]).length).toBe(1);
  });

  test('pages of activity (issue 45, T25): 10 by default, `limit` up to 100, the next page from `nextCursor`, unshifted by a new entry', async () => {
    const sessionToken = await subscribed('pages');
    const result = await api.database.db.execute(sql`select id from users where email = 'pages@example.com'`);
    const userId = ((Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ id: string }>)[0]!.id;
    // 24 renewal changes over 12 days (two a day), the oldest first, as they would have happened.
    for (let n = 0; n < 24; n += 1) {
      const day = `2026-10-${String(1 + Math.floor(n / 2)).padStart(2, '0')}`;
      const kind = n % 2 === 0 ? 'auto_renewal_off' : 'auto_renewal_on';
      await api.database.db.execute(sql`insert into account_activity (user_id, kind, actor, detail, occurred_on) values (${userId}, ${kind}, 'customer', '{}', ${day})`);
    }
    const page = (body: Record<string, unknown>) => call(api.app, 'POST', '/api/account/activity', { sessionToken, ...body });
    const days = (items: unknown) => (items as Array<{ date: string; kind: string }>).map((item) => `${item.date} ${item.kind}`);

    const first = await page({});
    expect(first.status).toBe(200);
    expect(days(first.body.items)).toEqual([
      '2026-10-12 auto_renewal_on', '2026-10-12 auto_renewal_off', '2026-10-11 auto_renewal_on', '2026-10-11 auto_renewal_off',
      '2026-10-10 auto_renewal_on', '2026-10-10 auto_renewal_off', '2026-10-09 auto_renewal_on', '2026-10-09 auto_renewal_off',
      '2026-10-08 auto_renewal_on', '2026-10-08 auto_renewal_off',
    ]);
    expect(first.body.nextCursor).toMatch(/^2026-10-08\.\d+$/);

    // A new entry between two pages lands on top, and the second page goes on where the first ended.
    await call(api.app, 'POST', '/api/subscription/cancel', { idToken: 'pages' });
    const second = await page({ cursor: first.body.nextCursor, limit: 12 });
    expect(days(second.body.items)).toEqual([
      '2026-10-07 auto_renewal_on', '2026-10-07 auto_renewal_off', '2026-10-06 auto_renewal_on', '2026-10-06 auto_renewal_off',
      '2026-10-05 auto_renewal_on', '2026-10-05 auto_renewal_off', '2026-10-04 auto_renewal_on', '2026-10-04 auto_renewal_off',
      '2026-10-03 auto_renewal_on', '2026-10-03 auto_renewal_off', '2026-10-02 auto_renewal_on', '2026-10-02 auto_renewal_off',
    ]);
    const last = await page({ cursor: second.body.nextCursor });
    expect(days(last.body.items)).toEqual(['2026-10-01 auto_renewal_on', '2026-10-01 auto_renewal_off']);
    expect(last.body.nextCursor).toBeNull();

    const fresh = await page({ limit: 100 });
    expect((fresh.body.items as unknown[]).length).toBe(25);
    expect(days(fresh.body.items)[0]).toBe(`${new Date().toISOString().slice(0, 10)} auto_renewal_off`);
    expect(fresh.body.nextCursor).toBeNull();

    for (const wrong of [{ limit: 0 }, { limit: 101 }, { cursor: 'next' }, { cursor: '2026-10-08' }]) {
      expect((await page(wrong)).status, JSON.stringify(wrong)).toBe(400);
    }
  });

  test('the table keeps the day only: no time, no address, no user agent', async () => {
    const result = await api.database.db.execute(
      sql`select column_name, data_type from information_schema.columns where table_name = 'account_activity' and table_schema = current_schema() order by column_name`,
    );
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ column_name: string; data_type: string }>;
    expect(rows.map((row) => `${row.column_name}:${row.data_type}`).sort()).toEqual(
      ['actor:text', 'detail:jsonb', 'id:bigint', 'kind:text', 'occurred_on:date', 'user_id:text'].sort(),
    );
  });
});
