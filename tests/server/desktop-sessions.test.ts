/**
 * Issue 10 §6: a hand-off token dies with the session that minted it; a desktop session may verify, list
 * devices and sign itself out, but not mint hand-offs, sign other devices out or delete the account; the
 * device limit (contract/limits.ts) is enforced at redemption, and a refused redemption keeps the token.
 */
import { eq } from 'drizzle-orm';
import { expect, inject, test } from 'vitest';
import { DEVICE_LIMIT } from '../../contract/limits';
import { sessions, users } from '../../server/db/schema';
import { mintProviderUser, uniqueAddress } from '../support/auth-emulator';
import { describeApi } from '../support/describe-api';
import { call } from '../support/server-harness';

const emulatorHost = inject('authEmulatorHost');
const emulatorUrl = `http://${emulatorHost}`;
const WEBSITE_ONLY = 'This can only be done on the website, signed in with Google or Apple, not from the VPN app.';


describeApi('hand-off and desktop sessions', { layer: 'http', emulatorHost, env: { RATE_LIMIT_SIGN_IN: '1000', RATE_LIMIT_SCALE: '100' } }, (api) => {

  async function signIn(label: string) {
    const minted = await mintProviderUser(emulatorUrl, { email: uniqueAddress(label) });
    const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
    return { sessionToken: body.sessionToken as string, user: body.user as { id: string; email: string }, idToken: minted.idToken };
  }
  async function handoff(sessionToken: string) {
    const answer = await call(api.app, 'POST', '/api/auth/handoff', { sessionToken });
    expect(answer.status).toBe(200);
    return answer.body.handoffToken as string;
  }
  const redeem = (handoffToken: string, deviceName = 'MacBook Air') =>
    call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken, deviceName });

  test('a hand-off token no longer redeems once the session that minted it has signed out', async () => {
    const { sessionToken, idToken } = await signIn('signout');
    const link = await handoff(sessionToken);
    // Another web session of the same account signing out does not kill this link...
    const other = (await call(api.app, 'POST', '/api/auth/google/signin', { idToken })).body.sessionToken as string;
    const otherLink = await handoff(other);
    await call(api.app, 'POST', '/api/auth/signout', { sessionToken: other });
    expect(await redeem(otherLink)).toMatchObject({
      status: 401,
      body: { success: false, error: 'This app link has expired or was already used. Open the VPN app again from your account.', code: 'handoff_invalid' },
    });
    expect((await redeem(link)).status).toBe(200);
    // ...and once the minting session signs out, its unused links die with it.
    const unused = await handoff(sessionToken);
    await call(api.app, 'POST', '/api/auth/signout', { sessionToken });
    expect((await redeem(unused)).status).toBe(401);
  });

  test('a hand-off token no longer redeems once its account is deleted', async () => {
    const { sessionToken, user } = await signIn('deleted');
    const link = await handoff(sessionToken);
    expect((await call(api.app, 'DELETE', '/api/auth/delete-account', { email: user.email, userId: user.id, sessionToken })).status).toBe(200);
    expect((await redeem(link)).status).toBe(401);
  });

  test('a desktop session may verify, list devices and sign itself out, nothing more', async () => {
    const { sessionToken, user } = await signIn('desktop');
    const desktop = (await redeem(await handoff(sessionToken))).body.sessionToken as string;

    expect(await call(api.app, 'POST', '/api/auth/verify', { sessionToken: desktop })).toMatchObject({ status: 200, body: { user } });
    const listed = await call(api.app, 'POST', '/api/auth/devices', { sessionToken: desktop });
    expect(listed).toMatchObject({ status: 200, body: { devices: [expect.objectContaining({ deviceName: 'MacBook Air' })] } });

    expect(await call(api.app, 'POST', '/api/auth/handoff', { sessionToken: desktop })).toMatchObject({
      status: 403,
      body: { success: false, error: WEBSITE_ONLY, code: 'website_only' },
    });
    const deviceId = (listed.body.devices as Array<{ id: string }>)[0]!.id;
    expect(await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken: desktop, deviceId })).toMatchObject({
      status: 403,
      body: { success: false, error: WEBSITE_ONLY, code: 'website_only' },
    });
    expect(
      await call(api.app, 'DELETE', '/api/auth/delete-account', { email: user.email, userId: user.id, sessionToken: desktop }),
    ).toMatchObject({ status: 403, body: { success: false, error: WEBSITE_ONLY, code: 'website_only' } });
    expect(await api.database.db.select().from(users)).toHaveLength(1);

    expect((await call(api.app, 'POST', '/api/auth/signout', { sessionToken: desktop })).status).toBe(200);
    expect((await call(api.app, 'POST', '/api/auth/verify', { sessionToken: desktop })).status).toBe(401);
  });

  test(`the device limit (${DEVICE_LIMIT}) is enforced at redemption; the refused link still works once a device is signed out`, async () => {
    const { sessionToken } = await signIn('many-devices');
    for (let device = 1; device <= DEVICE_LIMIT; device += 1) {
      expect((await redeem(await handoff(sessionToken), `Device ${device}`)).status).toBe(200);
    }
    const extra = await handoff(sessionToken);
    expect(await redeem(extra, 'One too many')).toMatchObject({
      status: 409,
      body: {
        success: false,
        error: `This account already has ${DEVICE_LIMIT} devices (desktop apps and WireGuard configurations), the most it allows. Remove one under Devices on your account page (http://veil.test/account) and try again.`,
        code: 'device_limit',
      },
    });
    expect(await api.database.db.select().from(sessions)).toHaveLength(DEVICE_LIMIT + 1); // + the web session

    const devices = (await call(api.app, 'POST', '/api/auth/devices', { sessionToken })).body.devices as Array<{ id: string }>;
    await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken, deviceId: devices[0]!.id });
    expect(await redeem(extra, 'One too many')).toMatchObject({ status: 200, body: { success: true } });
  });

  test('a redemption that fails while opening the desktop session leaves the link unused (one transaction)', async () => {
    const { sessionToken } = await signIn('atomic');
    const link = await handoff(sessionToken);
    // Make the session insert fail after the token was found: a database fault in the middle of redemption.
    await api.database.exec(`ALTER TABLE sessions ADD CONSTRAINT refuse_doomed CHECK (device_name IS NULL OR device_name <> 'Doomed')`);
    try {
      expect((await redeem(link, 'Doomed')).status).toBe(500);
    } finally {
      await api.database.exec('ALTER TABLE sessions DROP CONSTRAINT refuse_doomed');
    }
    expect(await redeem(link, 'Fine')).toMatchObject({ status: 200, body: { success: true } });
  });

  test('a desktop session without a name (one opened before names were asked for) is "Desktop app" in the list and in its sign-out entry', async () => {
    const { sessionToken } = await signIn('unnamed');
    await redeem(await handoff(sessionToken), 'Soon nameless');
    await api.database.db.update(sessions).set({ deviceName: null }).where(eq(sessions.deviceName, 'Soon nameless'));
    const devices = (await call(api.app, 'POST', '/api/auth/devices', { sessionToken })).body.devices as Array<{ id: string; deviceName: string }>;
    expect(devices.map((device) => device.deviceName)).toEqual(['Desktop app']);
    await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken, deviceId: devices[0]!.id });
    const activity = (await call(api.app, 'POST', '/api/account/activity', { sessionToken })).body.items as Array<{ kind: string; detail: { deviceName?: string } }>;
    expect(activity.find((item) => item.kind === 'device_revoked')).toMatchObject({ detail: { deviceName: 'Desktop app' } });
  });
});
