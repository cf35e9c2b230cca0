/**
 * Issue 31, item 4: POST /api/account/export, the customer's copy. A schema walk: a journey fills every
 * table that holds rows of an account (every table with a user_id column, and users), and the copy must
 * hold each of those rows, without a secret; it needs a sign-in within 10 minutes and answers once per
 * 10 minutes. On PGlite and PostgreSQL, with the real Auth emulator.
 */
import { expect, inject, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { EMULATOR_PROJECT_ID, mintProviderUser } from '../support/auth-emulator';
import { call } from '../support/server-harness';
import { eq } from 'drizzle-orm';
import { charges, disputes, providerRefunds } from '../../server/db/schema';
import { sha256 } from '../../server/domain/tokens';
import { newPublicKey, registerKey } from '../support/wireguard';
import { ownerColumn, RETAINED_DATA, SECRET_COLUMNS } from '../../contract/retention';
import { INTERNAL_COLUMNS, READABLE_COLUMNS } from '../../server/domain/privacy/data-export.ts';

const emulatorHost = inject('authEmulatorHost');

/**
 * An ID token as the Auth emulator issues them (unsigned; firebase-admin accepts it only with the emulator
 * host set) for `uid`, whose last sign-in was at `authTime`: how a test gets a sign-in older than 10 minutes.
 */
function emulatorToken(uid: string, email: string, authTime: number): string {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: `https://securetoken.google.com/${EMULATOR_PROJECT_ID}`,
    aud: EMULATOR_PROJECT_ID,
    auth_time: authTime,
    user_id: uid,
    sub: uid,
    iat: now,
    exp: now + 3600,
    email,
    email_verified: true,
    firebase: { identities: { email: [email] }, sign_in_provider: 'google.com' },
  };
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

describeApi('the customer\'s copy', { layer: 'sql', emulatorHost, reset: false }, (api, driver) => {
  test('holds every row of every table that holds the account\'s data, and no secret', async () => {
    const stamp = `${driver}${Date.now()}`;
    const email = `export.${stamp}@example.com`;
    const name = `Ada Export${stamp}`;
    const minted = await mintProviderUser(`http://${emulatorHost}`, { email, name });
    const signIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
    const sessionToken = signIn.body.sessionToken as string;
    const userId = (signIn.body.user as { id: string }).id;
    const handoffToken = (await call(api.app, 'POST', '/api/auth/handoff', { sessionToken })).body.handoffToken as string;
    const desktop = await call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken, deviceName: 'Ada’s MacBook' });
    const checkoutUrl = (await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: minted.idToken, email })).body.url as string;
    const checkoutPath = new URL(checkoutUrl).pathname;
    expect((await api.app.inject({ method: 'POST', url: `${checkoutPath}/pay` })).statusCode).toBe(303);
    const portalUrl = (await call(api.app, 'POST', '/api/billing/portal', { idToken: minted.idToken })).body.url as string;
    expect((await registerKey(api.app, sessionToken, newPublicKey(), 'Ada’s phone', minted.idToken)).status).toBe(200);
    expect((await call(api.app, 'POST', '/api/subscription/refund', { idToken: minted.idToken })).status).toBe(200);
    // A checkout opened again after the refund stays open (open_checkouts).
    const reopened = (await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: minted.idToken, email })).body.url as string;
    // Stripe's own refund reports (charge.refunded) have no local-checkout path: one written as the webhook would.
    await api.database.db.insert(providerRefunds).values({ id: `re_${stamp}`, userId, paymentIntent: 'pi_x', amount: 10_000, currency: 'usd', refundedAt: new Date(), receiptUrl: `https://pay.stripe.com/receipts/acct_x/rcpt_${stamp}` });
    // Disputes, too, come only from Stripe (charge.dispute.*): one written as the webhook would.
    await api.database.db.insert(disputes).values({ id: `dp_${stamp}`, userId, chargeId: 'ch_x', paymentIntent: 'pi_x', status: 'needs_response', providerUpdatedAt: 1, openedAt: new Date() });

    // The schema walk: every table with rows of an account, and how many this account has in each.
    const ownedTables = (
      await api.database.statement('export_owned_tables', `SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'user_id'`)([])
    ).map(([table]) => String(table));
    expect(ownedTables.length).toBeGreaterThan(8);
    const expected: Record<string, number> = { users: 1 };
    for (const table of ownedTables) {
      const [[count]] = (await api.database.statement(`export_count_${table}`, `SELECT count(*)::int FROM "${table}" WHERE user_id = $1`)([userId])) as [[number]];
      expected[table] = count;
    }
    const unfilled = Object.entries(expected).filter(([, count]) => count === 0).map(([table]) => table);
    expect(unfilled, `this test's journey must put a row of the account in each of these tables: ${unfilled.join(', ')}`).toEqual([]);

    const answer = await api.app.inject({ method: 'POST', url: '/api/account/export', payload: { idToken: minted.idToken } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="veil-vpn-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const copy = answer.json() as { accountId: string; parts: Array<{ key: string; rows: Record<string, unknown[]> }>; emailsSent: unknown[] };
    expect(copy.accountId).toBe(userId);
    const exportedRows: Record<string, number> = {};
    for (const part of copy.parts) for (const [table, rows] of Object.entries(part.rows)) exportedRows[table] = rows.length;
    expect(exportedRows).toEqual(expected);

    // Readable by a person (issue 45, T16): labelled fields, ISO 8601 times, amounts with their currency, no
    // internal column (no snake_case name, no account number but the one at the top), a summary at the top.
    const readable = answer.json() as { summary: string[]; parts: Array<{ key: string; rows: Record<string, Array<Record<string, unknown>>> }>; emailsSent: Array<{ kind: string }> };
    const rowsOf = (table: string) => readable.parts.flatMap((part) => part.rows[table] ?? []);
    for (const part of readable.parts) {
      for (const [table, rows] of Object.entries(part.rows)) {
        for (const row of rows) {
          for (const [label, value] of Object.entries(row)) {
            expect(label, `${table}: ${label}`).not.toMatch(/_/);
            expect(typeof value, `${table}: ${label}`).toBe('string');
            expect(value, `${table}: ${label}`).not.toBe(userId);
          }
        }
      }
    }
    const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    const [charge] = rowsOf('charges');
    expect(charge).toMatchObject({ Amount: '100.00 USD', Description: expect.any(String), 'Payment provider': 'local' });
    expect(charge!.Paid).toMatch(ISO_TIME);
    expect(rowsOf('users')[0]).toMatchObject({ 'E-mail address': email, Name: name, 'Signs in with': 'google' });
    expect(rowsOf('users')[0]!['Signed up']).toMatch(ISO_TIME);
    expect(rowsOf('provider_refunds')[0]).toMatchObject({ Amount: '100.00 USD' });
    for (const session of rowsOf('sessions')) expect(session['Last used (day)']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const today = new Date().toISOString().slice(0, 10);
    expect(rowsOf('account_activity')).toContainEqual({ Day: today, 'What happened': 'refund', By: 'you', Details: 'amount: 100.00 USD' });
    expect(rowsOf('wireguard_keys')[0]).toMatchObject({ Name: 'Ada’s phone', 'May connect now': 'no' });
    expect(readable.summary[0]).toBe(`Account: ${email}, signed up ${today}.`);
    // The money-back refund is made by a job, perhaps after this copy: one refund or two.
    expect(readable.summary.find((line) => line.startsWith('Payments:'))).toMatch(new RegExp(`^Payments: 1 payment \\(100\\.00 USD on ${today}\\); (1 refund \\(100\\.00 USD\\)|2 refunds \\(100\\.00 USD, 100\\.00 USD\\))\\.$`));
    expect(readable.summary).toContain(`Subscription: Veil VPN Premium, cancelled, current period ends ${String(rowsOf('subscriptions')[0]!['Current period ends']).slice(0, 10)}.`);
    expect(readable.summary).toContain('Devices: 2 sign-ins in use, 1 WireGuard configuration.');
    expect(Object.keys(answer.json() as object).slice(0, 3)).toEqual(['exportedAt', 'accountId', 'summary']);

    const text = answer.body;
    expect(text).toContain(email);
    expect(text).toContain(name);
    expect(text).toContain('Ada’s MacBook');
    const desktopToken = desktop.body.sessionToken as string;
    const secrets = [sessionToken, desktopToken, handoffToken, sha256(sessionToken), sha256(desktopToken), sha256(handoffToken), checkoutPath.split('/').pop()!, reopened.split('/').pop()!, portalUrl.split('/').pop()!];
    for (const secret of secrets) expect(text.includes(secret), `the copy holds a secret (${secret.slice(0, 10)}…)`).toBe(false);
    // Receipts are bearer ids too (issue 46, item 12): a local receipt's number opens its page at
    // /api/billing/receipts/<id>, and a provider's receipt link opens the provider's; neither is in the copy.
    const receipts = (await api.database.db.select({ id: charges.id, receiptUrl: charges.receiptUrl }).from(charges).where(eq(charges.userId, userId)))
      .flatMap((charge) => [charge.id, charge.receiptUrl ?? []].flat());
    expect(receipts.length).toBeGreaterThan(0);
    for (const receipt of [...receipts, `rcpt_${stamp}`]) expect(text.includes(receipt), `the copy holds a receipt bearer id (${receipt.slice(0, 12)}…)`).toBe(false);

    // One copy per 10 minutes.
    const again = await call(api.app, 'POST', '/api/account/export', { idToken: minted.idToken });
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ success: false, code: 'rate_limited' });
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(500);
  });

  test('every column of the account\'s tables is shown with a label, kept secret, or named internal with why (issue 45, T16)', () => {
    for (const entry of RETAINED_DATA) {
      for (const [table, columns] of Object.entries(entry.tables ?? {})) {
        if (!columns.includes(ownerColumn(table))) continue;
        const shown = (READABLE_COLUMNS[table] ?? []).map(([column]) => column);
        const decided = [...shown, ...(SECRET_COLUMNS[table] ?? []), ...Object.keys(INTERNAL_COLUMNS[table] ?? {})];
        expect([...columns].sort(), `${table}: each column shown, secret or internal`).toEqual([...new Set(decided)].sort());
      }
    }
  });

  test('needs a sign-in within the last 10 minutes: 401 reauth_required otherwise', async () => {
    const email = `reauth.${driver}${Date.now()}@example.com`;
    const minted = await mintProviderUser(`http://${emulatorHost}`, { email, name: 'Old Sign-in' });
    expect((await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken })).status).toBe(200);
    const elevenMinutesAgo = Math.floor(Date.now() / 1000) - 660;
    const stale = await call(api.app, 'POST', '/api/account/export', { idToken: emulatorToken(minted.uid, email, elevenMinutesAgo) });
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({ success: false, code: 'reauth_required', error: 'For your security, please sign in again to download your data.' });
    // The refusal did not use up the one copy: a fresh sign-in gets it.
    const fresh = await call(api.app, 'POST', '/api/account/export', { idToken: emulatorToken(minted.uid, email, Math.floor(Date.now() / 1000) - 60) });
    expect(fresh.status).toBe(200);
  });

  test('a bad body is a 400, an unknown token a 401', async () => {
    expect((await call(api.app, 'POST', '/api/account/export', {})).body).toMatchObject({ success: false, code: 'validation_failed' });
    expect((await call(api.app, 'POST', '/api/account/export', { idToken: 'x'.repeat(40) })).body).toMatchObject({ success: false, code: 'token_invalid' });
  });
});
