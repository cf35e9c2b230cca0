/**
 * Issue 30, "Done when" 2, on PGlite and PostgreSQL with the Auth emulator: one audit row per staff action
 * with its outcome (done, refused, failed) written with the change; rows surviving the customer's
 * deletion without the account id; disable ending every session and refusing the next sign-in, enable
 * allowing it again (ended sessions stay ended); the refund outside the window needing admin and a
 * reason; the customer's activity saying "support" and the action, never who or why.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, expect, inject, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { charges, deletedAccounts, refunds, staffActions, subscriptions, users } from '../../server/db/schema';
import { syncPeerAccess } from '../../server/domain/devices/peer-access';
import { createSession } from '../../server/domain/accounts/sessions';
import { sha256 } from '../../server/domain/tokens';
import { mintProviderUser, uniqueAddress } from '../support/auth-emulator';
import { call, createTestApi } from '../support/server-harness';
import { mailsOwed } from '../support/mail-owed';
import { staffUser } from '../support/staff';
import { listedKeys, newPublicKey, registerKey, RELAY_TOKEN } from '../support/wireguard';

const emulatorHost = inject('authEmulatorHost');
const emulatorUrl = `http://${emulatorHost}`;
const env = { RATE_LIMIT_SIGN_IN: '1000', RATE_LIMIT_SCALE: '100', RELAY_TOKENS: `test-relay:${RELAY_TOKEN}` };

let support: { idToken: string; uid: string; email: string };
let admin: { idToken: string; uid: string; email: string };
beforeAll(async () => {
  support = await staffUser(emulatorHost, 'support');
  admin = await staffUser(emulatorHost, 'admin');
});

describeApi('staff actions', { layer: 'sql', emulatorHost, env }, (api, driver) => {
  async function customer({ pay = true } = {}) {
    const minted = await mintProviderUser(emulatorUrl, { email: uniqueAddress('customer') });
    const signedIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
    const sessionToken = signedIn.body.sessionToken as string;
    const userId = (signedIn.body.user as { id: string }).id;
    if (pay) {
      const opened = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: minted.idToken, email: minted.email });
      await api.app.inject({ method: 'POST', url: `${new URL(opened.body.url as string).pathname}/pay` });
    }
    const { handoffToken } = (await call(api.app, 'POST', '/api/auth/handoff', { sessionToken })).body as { handoffToken: string };
    const desktop = (await call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken, deviceName: 'Home PC' })).body.sessionToken as string;
    const [device] = (await call(api.app, 'POST', '/api/auth/devices', { sessionToken })).body.devices as Array<{ id: string }>;
    return { ...minted, userId, sessionToken, desktop, deviceId: device!.id };
  }
  const act = (idToken: string, userId: string, action: string, extra: object = {}) =>
    call(api.app, 'POST', '/api/staff/actions', { idToken, userId, action, reason: 'Customer wrote to support', ...extra });
  const auditRows = () => api.database.db.select().from(staffActions).orderBy(staffActions.id);
  const verify = (sessionToken: string) => call(api.app, 'POST', '/api/auth/verify', { sessionToken });

  test('each action is one audit row with its outcome: done, refused by role or by the rules, failed', async () => {
    const ada = await customer();
    expect((await act(support.idToken, ada.userId, 'revoke_device', { deviceId: ada.deviceId })).status).toBe(200);
    expect((await act(support.idToken, ada.userId, 'refund')).status).toBe(403);
    expect((await act(support.idToken, ada.userId, 'revoke_device', { deviceId: 'ses_nothing' })).status).toBe(404);
    expect((await act(support.idToken, ada.userId, 'resend_receipt')).status).toBe(200);

    const rows = await auditRows();
    expect(rows.map(({ action, outcome, outcomeCode, role, staffEmail }) => ({ action, outcome, outcomeCode, role, staffEmail }))).toEqual([
      { action: 'revoke_device', outcome: 'done', outcomeCode: null, role: 'support', staffEmail: support.email },
      { action: 'refund', outcome: 'refused', outcomeCode: 'staff_forbidden', role: 'support', staffEmail: support.email },
      { action: 'revoke_device', outcome: 'refused', outcomeCode: 'not_found', role: 'support', staffEmail: support.email },
      { action: 'resend_receipt', outcome: 'done', outcomeCode: null, role: 'support', staffEmail: support.email },
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ staffUid: support.uid, targetHash: sha256(ada.userId), reason: 'Customer wrote to support' });
      // The account is never named by its id.
      expect(JSON.stringify(row)).not.toContain(ada.userId);
    }
    expect(rows[0]!.params).toEqual({ deviceId: ada.deviceId });

    // The device is signed out; the staff console lists the four, newest first.
    expect((await verify(ada.desktop)).status).toBe(401);
    const view = await call(api.app, 'POST', '/api/staff/customer', { idToken: support.idToken, userId: ada.userId });
    expect(view.status).toBe(200);
    expect((view.body.customer as { actions: Array<{ action: string; outcome: string }> }).actions.map((row) => `${row.action}:${row.outcome}`)).toEqual([
      'resend_receipt:done',
      'revoke_device:refused',
      'refund:refused',
      'revoke_device:done',
    ]);
    // Issue 45 T12: the money-back window (paid just now: open) and the account's own activity, as its page shows it.
    const shown = view.body.customer as { refundableUntil: string | null; activity: Array<{ kind: string; by: string; detail: { action?: string } }> };
    expect(Date.parse(shown.refundableUntil ?? '')).toBeGreaterThan(Date.now());
    expect(shown.activity.filter((item) => item.kind === 'staff_action').map((item) => `${item.by}:${item.detail.action}`)).toEqual(
      expect.arrayContaining(['support:revoke_device', 'support:resend_receipt']),
    );
  });

  test("the console says whether the customer's devices connect by the peer list's own rule (issue 49, item 2)", async () => {
    const ada = await customer();
    const accessOf = async () => ((await call(api.app, 'POST', '/api/staff/customer', { idToken: support.idToken, userId: ada.userId })).body.customer as { access: string; subscription: { status: string } });
    const phone = (await registerKey(api.app, ada.sessionToken, newPublicKey(), 'Phone', ada.idToken)).body.device as { publicKey: string };
    expect(await accessOf()).toMatchObject({ access: 'connects', subscription: { status: 'active' } });
    // Stripe's `unpaid`: shown past due, paid for nothing: off the peer list, and the console says so.
    await api.database.db.update(subscriptions).set({ status: 'past_due', unpaid: true }).where(eq(subscriptions.userId, ada.userId));
    await api.database.db.transaction((tx) => syncPeerAccess(tx, ada.userId, new Date()));
    expect(await listedKeys(api.app)).not.toContain(phone.publicKey);
    expect(await accessOf()).toMatchObject({ access: 'pausedUntilPayment', subscription: { status: 'past_due' } });
    // Disabled by support: no access whatever the subscription.
    await api.database.db.update(subscriptions).set({ status: 'active', unpaid: false }).where(eq(subscriptions.userId, ada.userId));
    expect((await act(admin.idToken, ada.userId, 'disable')).status).toBe(200);
    expect(await accessOf()).toMatchObject({ access: 'planEnded', subscription: { status: 'active' } });
  });

  test('support sees WireGuard keys among the devices and revokes one: off the peer list, one audit row, "Veil support" in the activity', async () => {
    const ada = await customer();
    const added = await registerKey(api.app, ada.sessionToken, newPublicKey(), 'Phone', ada.idToken);
    const phone = added.body.device as { id: string; publicKey: string };
    expect(await listedKeys(api.app)).toEqual([phone.publicKey]);

    const viewDevices = async () =>
      ((await call(api.app, 'POST', '/api/staff/customer', { idToken: support.idToken, userId: ada.userId })).body.customer as { devices: unknown[] }).devices;
    expect(await viewDevices()).toEqual([
      { id: ada.deviceId, name: 'Home PC', kind: 'desktop', createdAt: expect.any(String), lastUsedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
      { id: phone.id, name: 'Phone', kind: 'wireguard', createdAt: expect.any(String), lastUsedOn: null },
    ]);

    expect(await act(support.idToken, ada.userId, 'revoke_device', { deviceId: phone.id })).toMatchObject({ status: 200, body: { success: true, outcome: 'done' } });
    // The key left the relays' list; the desktop app stays signed in.
    expect(await listedKeys(api.app)).toEqual([]);
    expect((await verify(ada.desktop)).status).toBe(200);
    expect(await viewDevices()).toEqual([expect.objectContaining({ id: ada.deviceId, kind: 'desktop' })]);
    // Another account's key, or one already gone, is not found.
    expect((await act(support.idToken, ada.userId, 'revoke_device', { deviceId: phone.id })).status).toBe(404);

    // The two looks at the customer are audited too (issue 46, item 11); here, the actions.
    const rows = (await auditRows()).filter((row) => row.action !== 'view_customer');
    expect(rows.map(({ action, outcome, params }) => ({ action, outcome, params }))).toEqual([
      { action: 'revoke_device', outcome: 'done', params: { deviceId: phone.id } },
      { action: 'revoke_device', outcome: 'refused', params: { deviceId: phone.id } },
    ]);
    const activity = await call(api.app, 'POST', '/api/account/activity', { sessionToken: ada.sessionToken });
    const [latest] = activity.body.items as Array<Record<string, unknown>>;
    expect(latest).toEqual({ kind: 'staff_action', by: 'support', date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), detail: { action: 'revoke_device', deviceName: 'Phone' } });
  });

  test('a failure at the identity provider rolls the change back and is audited as failed', async () => {
    const failing = await createTestApi({
      driver,
      emulatorHost,
      env,
      identityAdmin: {
        disable: async () => {
          throw new Error('Firebase is down');
        },
        enable: async () => undefined,
      },
    });
    try {
      const minted = await mintProviderUser(emulatorUrl, { email: uniqueAddress('unlucky') });
      const signedIn = await call(failing.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
      const userId = (signedIn.body.user as { id: string }).id;
      const answer = await call(failing.app, 'POST', '/api/staff/actions', { idToken: admin.idToken, userId, action: 'disable', reason: 'Card testing abuse' });
      expect(answer).toMatchObject({ status: 500, body: { success: false, code: 'internal_error' } });
      // Nothing changed: the account is not disabled and its session still works.
      const [user] = await failing.database.db.select().from(users).where(eq(users.id, userId));
      expect(user!.disabledAt).toBeNull();
      expect((await call(failing.app, 'POST', '/api/auth/verify', { sessionToken: signedIn.body.sessionToken })).status).toBe(200);
      const rows = await failing.database.db.select().from(staffActions);
      expect(rows).toEqual([expect.objectContaining({ action: 'disable', outcome: 'failed', outcomeCode: 'internal_error', targetHash: sha256(userId) })]);
    } finally {
      await failing.close();
    }
  });

  test('disable ends every session and refuses the next sign-in; enable allows it again, ended sessions stay ended', async () => {
    const ada = await customer({ pay: false });
    const otherWeb = (await call(api.app, 'POST', '/api/auth/google/signin', { idToken: ada.idToken })).body.sessionToken as string;
    await new Promise((resolve) => setTimeout(resolve, 1100)); // revocation has one-second precision
    expect((await act(admin.idToken, ada.userId, 'disable', { reason: 'Chargeback fraud' })).status).toBe(200);

    for (const session of [ada.sessionToken, otherWeb, ada.desktop]) expect((await verify(session)).status).toBe(401);
    expect(await mailsOwed(api.database, 'account_disabled', ada.userId)).toEqual([expect.objectContaining({ renewalTurnedOff: false })]);
    // Firebase refuses the sign-in itself (the SPA shows the spec's message); the old ID token is refused too.
    await expect(mintProviderUser(emulatorUrl, { email: ada.email })).rejects.toThrow(/USER_DISABLED/);
    expect((await call(api.app, 'POST', '/api/auth/google/signin', { idToken: ada.idToken })).status).toBe(401);
    expect((await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: ada.idToken, email: ada.email })).status).toBe(401);

    expect((await act(admin.idToken, ada.userId, 'enable', { reason: 'Chargeback withdrawn' })).status).toBe(200);
    const again = await mintProviderUser(emulatorUrl, { email: ada.email });
    const signedIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: again.idToken });
    expect(signedIn.status).toBe(200);
    expect((await verify(signedIn.body.sessionToken as string)).status).toBe(200);
    for (const session of [ada.sessionToken, otherWeb, ada.desktop]) expect((await verify(session)).status).toBe(401);
  });

  // Issue 46, item 10: a sign-in or a hand-off that read the account just before the disable committed
  // writes its session just after it (the disable ended only the sessions it saw). Such a session must not work.
  test('a session written after the disable (a sign-in or hand-off racing it) works for nothing', async () => {
    const ada = await customer({ pay: false });
    expect((await act(admin.idToken, ada.userId, 'disable', { reason: 'Account takeover' })).status).toBe(200);
    const web = (await createSession(api.database.db, ada.userId, 3600)).token;
    const desktop = (await createSession(api.database.db, ada.userId, 3600, { kind: 'desktop', name: 'Racing PC' })).token;
    for (const sessionToken of [web, desktop]) {
      expect((await verify(sessionToken)).status, 'verify').toBe(401);
      expect((await call(api.app, 'POST', '/api/auth/devices', { sessionToken })).status, 'devices').toBe(401);
      expect((await call(api.app, 'POST', '/api/account/activity', { sessionToken })).status, 'activity').toBe(401);
      expect((await call(api.app, 'POST', '/api/billing/history', { sessionToken })).status, 'billing history').toBe(401);
      expect((await registerKey(api.app, sessionToken, newPublicKey())).status, 'a WireGuard key').toBe(401);
    }
    expect((await call(api.app, 'POST', '/api/auth/handoff', { sessionToken: web })).status, 'a hand-off').toBe(401);
    // Enabled again, the account signs in afresh (the racing sessions stay as they were: ended by the disable's rule).
    expect((await act(admin.idToken, ada.userId, 'enable', { reason: 'Owner confirmed' })).status).toBe(200);
  });

  test('a disabled account stops renewing: auto-renewal off at the provider and here, said in the audit row', async () => {
    const ada = await customer();
    const [before] = await api.database.db.select().from(subscriptions).where(eq(subscriptions.userId, ada.userId));
    expect(before).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    expect((await act(admin.idToken, ada.userId, 'disable', { reason: 'Chargeback fraud' })).status).toBe(200);
    const [after] = await api.database.db.select().from(subscriptions).where(eq(subscriptions.userId, ada.userId));
    expect(after).toMatchObject({ cancelAtPeriodEnd: true });
    const [row] = (await auditRows()).filter((audit) => audit.action === 'disable');
    expect(row).toMatchObject({ outcome: 'done', params: { autoRenewal: 'turned_off' } });
    // The customer is told (issue 45, T13): one notice per disable, saying renewal was turned off with it.
    expect(await mailsOwed(api.database, 'account_disabled', ada.userId)).toEqual([expect.objectContaining({ userId: ada.userId, renewalTurnedOff: true })]);
    // Enabling does not turn it back on: the customer decides that.
    expect((await act(admin.idToken, ada.userId, 'enable', { reason: 'Chargeback withdrawn' })).status).toBe(200);
    const [enabled] = await api.database.db.select().from(subscriptions).where(eq(subscriptions.userId, ada.userId));
    expect(enabled).toMatchObject({ cancelAtPeriodEnd: true });
  });

  test('a token the provider still accepts cannot sign a disabled account in: the spec\'s message', async () => {
    // Production's sign-in verifies without asking Firebase about revocation: an hour-old token would pass.
    const trusting = await createTestApi({ driver, verifier: { verify: async (token) => ({ subject: token, email: `${token}@example.com`, name: token }) } });
    try {
      const signedIn = await call(trusting.app, 'POST', '/api/auth/google/signin', { idToken: 'locked-out' });
      await trusting.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, (signedIn.body.user as { id: string }).id));
      expect(await call(trusting.app, 'POST', '/api/auth/google/signin', { idToken: 'locked-out' })).toMatchObject({
        status: 403,
        body: { success: false, error: 'This account has been disabled. Please contact support.', code: 'account_disabled' },
      });
      expect((await call(trusting.app, 'POST', '/api/subscription/cancel', { idToken: 'locked-out' })).body).toMatchObject({ code: 'account_disabled' });
    } finally {
      await trusting.close();
    }
  });

  test('the refund outside the 30 days needs admin and a reason; the activity says support, never who or why', async () => {
    const ada = await customer();
    await api.database.db.update(charges).set({ paidAt: new Date(Date.now() - 40 * 86_400_000) }).where(eq(charges.userId, ada.userId));
    // The customer can no longer; support may not; admin without a reason is a 400; with one, done.
    expect((await call(api.app, 'POST', '/api/subscription/refund', { idToken: ada.idToken })).status).toBe(409);
    expect((await act(support.idToken, ada.userId, 'refund')).status).toBe(403);
    expect((await call(api.app, 'POST', '/api/staff/actions', { idToken: admin.idToken, userId: ada.userId, action: 'refund' })).status).toBe(400);
    expect(await act(admin.idToken, ada.userId, 'refund', { reason: 'Renewal charged while in hospital' })).toMatchObject({
      status: 200,
      body: { success: true, outcome: 'done' },
    });
    expect(await api.database.db.select().from(refunds).where(eq(refunds.userId, ada.userId))).toEqual([
      expect.objectContaining({ reason: 'staff', amount: 10000 }),
    ]);
    expect((await verify(ada.sessionToken)).body.subscription).toMatchObject({ status: 'cancelled' });
    // A second refund of the same subscription is refused (nothing live to refund) and audited so.
    expect((await act(admin.idToken, ada.userId, 'refund')).status).toBe(404);

    const activity = await call(api.app, 'POST', '/api/account/activity', { sessionToken: ada.sessionToken });
    const [latest] = activity.body.items as Array<Record<string, unknown>>;
    expect(latest).toEqual({ kind: 'staff_action', by: 'support', date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), detail: { action: 'refund', amount: 10000, currency: 'usd' } });
    expect(JSON.stringify(activity.body)).not.toContain(admin.email);
    expect(JSON.stringify(activity.body)).not.toContain('hospital');
  });

  test('after the customer is deleted by an admin, the audit rows stay and name the target by the tombstone hash only', async () => {
    const ada = await customer();
    expect((await act(support.idToken, ada.userId, 'resend_receipt')).status).toBe(200);
    expect((await act(admin.idToken, ada.userId, 'delete', { reason: 'Customer asked by letter' })).status).toBe(200);

    expect(await api.database.db.select().from(users).where(eq(users.id, ada.userId))).toEqual([]);
    expect(await api.database.db.select().from(deletedAccounts).where(eq(deletedAccounts.userIdHash, sha256(ada.userId)))).toHaveLength(1);
    const rows = await auditRows();
    expect(rows.map((row) => `${row.action}:${row.outcome}`)).toEqual(['resend_receipt:done', 'delete:done']);
    for (const row of rows) {
      expect(row.targetHash).toBe(sha256(ada.userId));
      expect(JSON.stringify(row)).not.toContain(ada.userId);
    }
    // The deleted account is gone from staff search and view.
    expect((await call(api.app, 'POST', '/api/staff/customer', { idToken: admin.idToken, userId: ada.userId })).status).toBe(404);
  });

  // Issue 46, item 11: looking is audited like acting: who looked, when, and the search text or the customer.
  test('every search and every customer view is an audit row: who, when, the search text or the customer (by hash)', async () => {
    const ada = await customer({ pay: false });
    const query = ada.email.slice(0, 12);
    expect((await call(api.app, 'POST', '/api/staff/search', { idToken: support.idToken, query })).status).toBe(200);
    expect((await call(api.app, 'POST', '/api/staff/customer', { idToken: admin.idToken, userId: ada.userId })).status).toBe(200);
    const looks = (await auditRows()).filter((row) => row.action === 'search' || row.action === 'view_customer');
    expect(looks).toEqual([
      expect.objectContaining({ action: 'search', staffUid: support.uid, staffEmail: support.email, role: 'support', params: { query }, outcome: 'done', occurredAt: expect.any(Date) }),
      expect.objectContaining({ action: 'view_customer', staffUid: admin.uid, staffEmail: admin.email, role: 'admin', targetHash: sha256(ada.userId), outcome: 'done' }),
    ]);
    // A look is no action: the customer's activity and the console's list of actions leave it out.
    const view = (await call(api.app, 'POST', '/api/staff/customer', { idToken: admin.idToken, userId: ada.userId })).body.customer as { actions: unknown[] };
    expect(view.actions).toEqual([]);
    expect(((await call(api.app, 'POST', '/api/account/activity', { sessionToken: ada.sessionToken })).body.items as Array<{ kind: string }>).some((item) => item.kind === 'staff_action')).toBe(false);
  });

  test('search finds by e-mail prefix, account id, payment customer id and receipt number, at most 20', async () => {
    const ada = await customer();
    const [charge] = await api.database.db.select().from(charges).where(eq(charges.userId, ada.userId));
    const search = async (query: string) =>
      ((await call(api.app, 'POST', '/api/staff/search', { idToken: support.idToken, query })).body.customers as Array<{ id: string }>).map((c) => c.id);
    expect(await search(ada.email.slice(0, 12))).toContain(ada.userId);
    expect(await search(ada.userId)).toEqual([ada.userId]);
    expect(await search(charge!.id)).toEqual([ada.userId]);
    expect(await search('%')).toEqual([]);
    const answer = await call(api.app, 'POST', '/api/staff/search', { idToken: support.idToken, query: ada.email });
    expect(answer.body).toEqual({
      success: true,
      role: 'support',
      customers: [{ id: ada.userId, email: ada.email, name: 'Test User', status: 'active', createdAt: expect.any(String) }],
    });
  });
});
