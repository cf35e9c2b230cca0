/**
 * Issue 30, "Done when" 1: every staff route against every kind of caller (no valid token, a customer, a
 * customer sending `staff` in the body, support, admin, a token whose claim was removed since), asserting
 * the feature-to-role table of item 2 exactly: 401 without a valid token, 403 for a role that may not,
 * 200 for one that may. Real Auth emulator (custom claims, revocation), PGlite.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { FEATURE_ROLES, STAFF_ACTIONS, type StaffActionName } from '../../contract/staff';
import { mintProviderUser, uniqueAddress } from '../support/auth-emulator';
import { call, createTestApi, type TestApi } from '../support/server-harness';
import { emulatorAdmin, freshToken, staffUser } from '../support/staff';

const emulatorHost = inject('authEmulatorHost');
const emulatorUrl = `http://${emulatorHost}`;

type Caller = 'no valid token' | 'customer' | 'customer claiming staff in the body' | 'support' | 'admin' | 'claim removed';
const CALLERS: Caller[] = ['no valid token', 'customer', 'customer claiming staff in the body', 'support', 'admin', 'claim removed'];
type Call = 'search' | 'customer' | `action ${StaffActionName}`;

/** The table of item 2, as HTTP statuses: Support searches, views, resends receipts, revokes devices; Admin does everything. */
const STAFF_ONLY = { 'no valid token': 401, customer: 403, 'customer claiming staff in the body': 403, 'claim removed': 401 } as const;
const EXPECTED: Record<Call, Record<Caller, number>> = {
  search: { ...STAFF_ONLY, support: 200, admin: 200 },
  customer: { ...STAFF_ONLY, support: 200, admin: 200 },
  'action resend_receipt': { ...STAFF_ONLY, support: 200, admin: 200 },
  'action revoke_device': { ...STAFF_ONLY, support: 200, admin: 200 },
  'action refund': { ...STAFF_ONLY, support: 403, admin: 200 },
  'action disable': { ...STAFF_ONLY, support: 403, admin: 200 },
  'action enable': { ...STAFF_ONLY, support: 403, admin: 200 },
  'action delete': { ...STAFF_ONLY, support: 403, admin: 200 },
};

let api: TestApi;
const tokens = {} as Record<Caller, string>;
let removedEmail = '';

beforeAll(async () => {
  api = await createTestApi({ driver: 'pglite', emulatorHost, env: { RATE_LIMIT_SIGN_IN: '1000', RATE_LIMIT_SCALE: '100' } });
  tokens['no valid token'] = 'not-a-token';
  tokens.customer = (await staffUser(emulatorHost, null)).idToken;
  tokens['customer claiming staff in the body'] = tokens.customer;
  tokens.support = (await staffUser(emulatorHost, 'support')).idToken;
  tokens.admin = (await staffUser(emulatorHost, 'admin')).idToken;
  // An admin whose role is removed as `staff:grant -- <email> none` does: claim gone, refresh tokens revoked.
  const removed = await staffUser(emulatorHost, 'admin', 'removed');
  await new Promise((resolve) => setTimeout(resolve, 1100)); // revocation has one-second precision
  const admin = emulatorAdmin(emulatorHost);
  await admin.setCustomUserClaims(removed.uid, {});
  await admin.revokeRefreshTokens(removed.uid);
  tokens['claim removed'] = removed.idToken;
  removedEmail = removed.email;
}, 60_000);
afterAll(() => api?.close());

/** A subscribed customer with one desktop device, to act on. */
async function target() {
  const minted = await mintProviderUser(emulatorUrl, { email: uniqueAddress('target') });
  const signedIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
  const sessionToken = signedIn.body.sessionToken as string;
  const userId = (signedIn.body.user as { id: string }).id;
  const opened = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: minted.idToken, email: minted.email });
  await api.app.inject({ method: 'POST', url: `${new URL(opened.body.url as string).pathname}/pay` });
  const { handoffToken } = (await call(api.app, 'POST', '/api/auth/handoff', { sessionToken })).body as { handoffToken: string };
  await call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken, deviceName: 'Work laptop' });
  const [device] = (await call(api.app, 'POST', '/api/auth/devices', { sessionToken })).body.devices as Array<{ id: string }>;
  return { userId, deviceId: device!.id, email: minted.email };
}

async function attempt(what: Call, caller: Caller): Promise<number> {
  const idToken = tokens[caller];
  const extra = caller === 'customer claiming staff in the body' ? { staff: 'admin', role: 'admin' } : {};
  const customer = await target();
  if (what === 'search') return (await call(api.app, 'POST', '/api/staff/search', { idToken, query: customer.email, ...extra })).status;
  if (what === 'customer') return (await call(api.app, 'POST', '/api/staff/customer', { idToken, userId: customer.userId, ...extra })).status;
  const action = what.replace('action ', '') as StaffActionName;
  const body = { idToken, userId: customer.userId, action, reason: 'Customer asked by e-mail', deviceId: customer.deviceId, ...extra };
  return (await call(api.app, 'POST', '/api/staff/actions', body)).status;
}

describe('the staff routes follow the feature-to-role table exactly', () => {
  test('the one table (contract/staff.ts) is item 2: support looks and helps, admin also moves money and locks or deletes', () => {
    expect(FEATURE_ROLES).toEqual({
      search: ['support', 'admin'],
      view_customer: ['support', 'admin'],
      view_servers: ['support', 'admin'],
      resend_receipt: ['support', 'admin'],
      revoke_device: ['support', 'admin'],
      refund: ['admin'],
      disable: ['admin'],
      enable: ['admin'],
      delete: ['admin'],
    });
  });

  test('every route, every caller', async () => {
    const seen = {} as Record<Call, Record<Caller, number>>;
    const calls: Call[] = ['search', 'customer', ...STAFF_ACTIONS.map((action) => `action ${action}` as const)];
    for (const what of calls) {
      seen[what] = {} as Record<Caller, number>;
      for (const caller of CALLERS) seen[what][caller] = await attempt(what, caller);
    }
    expect(seen).toEqual(EXPECTED);
  }, 120_000);

  test('a refusal says why in the one error shape; the removed role gets a fresh token and is still refused', async () => {
    const { userId } = await target();
    expect(await call(api.app, 'POST', '/api/staff/actions', { idToken: tokens.support, userId, action: 'refund', reason: 'Charged twice' })).toEqual({
      status: 403,
      headers: expect.anything(),
      body: { success: false, error: 'Your staff role does not allow this.', code: 'staff_forbidden' },
    });
    expect(await call(api.app, 'POST', '/api/staff/search', { idToken: 'not-a-token', query: 'a' })).toMatchObject({
      status: 401,
      body: { success: false, code: 'token_invalid' },
    });
    const signedInAgain = await freshToken(emulatorHost, removedEmail);
    expect((await call(api.app, 'POST', '/api/staff/search', { idToken: signedInAgain.idToken, query: 'a' })).status).toBe(403);
  });

  test('every action needs a reason of 5 to 500 characters; revoke_device needs its device', async () => {
    const { userId } = await target();
    const act = (body: object) => call(api.app, 'POST', '/api/staff/actions', { idToken: tokens.admin, userId, action: 'disable', ...body });
    expect(await act({})).toMatchObject({ status: 400, body: { code: 'validation_failed', error: expect.stringContaining('reason') } });
    expect(await act({ reason: 'abc ' })).toMatchObject({ status: 400, body: { error: expect.stringContaining('reason must be at least 5 characters') } });
    expect(await act({ reason: 'x'.repeat(501) })).toMatchObject({ status: 400, body: { error: expect.stringContaining('reason must be at most 500 characters') } });
    expect(await act({ action: 'revoke_device', reason: 'Lost laptop' })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('deviceId is required to revoke a device') },
    });
    expect(await act({ action: 'explode', reason: 'Lost laptop' })).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
  });

  test('STAFF_EMAIL_DOMAIN: staff outside the domain are refused like customers', async () => {
    const restricted = await createTestApi({ driver: 'pglite', emulatorHost, env: { STAFF_EMAIL_DOMAIN: 'veil.example' } });
    try {
      // The test's staff have example.com addresses.
      expect((await call(restricted.app, 'POST', '/api/staff/search', { idToken: tokens.admin, query: 'a' })).status).toBe(403);
    } finally {
      await restricted.close();
    }
  });
});
