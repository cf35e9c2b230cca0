/**
 * Issue 29 with issue 30's staff console: an account support disabled is off the VPN (its keys leave the peer
 * list; a desktop session's own key goes with the session), and enabling it brings its configurations back
 * while its subscription gives access. On the Auth emulator, PGlite and PostgreSQL.
 */
import { beforeAll, expect, inject, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { mintProviderUser, uniqueAddress } from '../support/auth-emulator';
import { call } from '../support/server-harness';
import { staffUser } from '../support/staff';
import { listedKeys, newPublicKey, registerKey, RELAY_TOKEN } from '../support/wireguard';

const env = { RATE_LIMIT_SCALE: '10', RATE_LIMIT_SIGN_IN: '1000', RELAY_TOKENS: `test-relay:${RELAY_TOKEN}` };

const emulatorHost = inject('authEmulatorHost');

describeApi('the peer list and support', { layer: 'http', emulatorHost, env, reset: false }, (api) => {
  let admin: { idToken: string };
  beforeAll(async () => {
    admin = await staffUser(emulatorHost, 'admin');
  });

  test("disabling an account takes its keys off (a desktop session's own key for good); enabling it brings its configurations back", async () => {
    const minted = await mintProviderUser(`http://${emulatorHost}`, { email: uniqueAddress('relay-disabled') });
    const signedIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
    const sessionToken = signedIn.body.sessionToken as string;
    const userId = (signedIn.body.user as { id: string }).id;
    const opened = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: minted.idToken, email: minted.email });
    await api.app.inject({ method: 'POST', url: `${new URL(opened.body.url as string).pathname}/pay` });
    const key = { publicKey: newPublicKey() };
    expect((await registerKey(api.app, sessionToken, key.publicKey, 'Laptop', minted.idToken)).status).toBe(200);
    const { handoffToken } = (await call(api.app, 'POST', '/api/auth/handoff', { sessionToken })).body as { handoffToken: string };
    const desktop = (await call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken, deviceName: 'Home PC' })).body.sessionToken as string;
    const desktopKey = newPublicKey();
    expect((await registerKey(api.app, desktop, desktopKey)).status).toBe(200);
    expect(await listedKeys(api.app)).toEqual([key.publicKey, desktopKey].sort());

    const act = (action: string) => call(api.app, 'POST', '/api/staff/actions', { idToken: admin.idToken, userId, action, reason: 'Chargeback fraud' });
    expect((await act('disable')).status).toBe(200);
    expect(await listedKeys(api.app)).toEqual([]);
    expect((await act('enable')).status).toBe(200);
    expect(await listedKeys(api.app)).toEqual([key.publicKey]);
  });
});
