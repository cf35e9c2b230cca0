/**
 * WireGuard keys as devices (issue 29, items 1 to 3): the server catalogue, key and name validation,
 * tunnel addresses from the pools (unique under concurrent registrations on two instances), the 5-minute
 * block of removed keys, the one device limit across desktop sessions and keys, a desktop session's own
 * key, one device list, revocation and rotation.
 */
import ipaddr from 'ipaddr.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { removedWireguardKeys, sessions, subscriptions, wireguardKeys } from '../../server/db/schema';
import { call, createTestApi, nameVerifier, subscribe, type TestApi } from '../support/server-harness';
import { newPublicKey, registerKey as register, RELAY_TOKEN } from '../support/wireguard';

const env = { RATE_LIMIT_SCALE: '10', RELAY_TOKENS: `test-relay:${RELAY_TOKEN}` };

/** nameVerifier, but `signed-in-long-ago:<name>` is that person's ID token of a sign-in 11 minutes ago. */
const verifier: typeof nameVerifier = {
  verify: async (token) =>
    token.startsWith('signed-in-long-ago:')
      ? { ...(await nameVerifier.verify(token.slice('signed-in-long-ago:'.length))), authTime: Math.floor(Date.now() / 1000) - 11 * 60 }
      : nameVerifier.verify(token),
};

/** The ID token each web session signed in with (nameVerifier: a sign-in just now), sent with its keys. */
const idTokens = new Map<string, string>();
const registerKey = (app: TestApi['app'], sessionToken: string, publicKey: string, name?: string) => register(app, sessionToken, publicKey, name, idTokens.get(sessionToken));

async function signIn(api: TestApi, name: string) {
  const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
  idTokens.set(body.sessionToken as string, name);
  return { userId: (body.user as { id: string }).id, sessionToken: body.sessionToken as string };
}

/** Signs in and pays a year: a WireGuard key needs a subscription that gives access (issue 46, item 9). */
async function subscriber(api: TestApi, name: string) {
  const user = await signIn(api, name);
  await subscribe(api.app, name);
  return user;
}

/** POST /api/vpn/devices/rotate with the ID token the session signed in with (a sign-in just now). */
const rotate = (app: TestApi['app'], sessionToken: string, deviceId: string, publicKey: string, idToken = idTokens.get(sessionToken)) =>
  call(app, 'POST', '/api/vpn/devices/rotate', { sessionToken, deviceId, publicKey, ...(idToken ? { idToken } : {}) });

async function desktopSession(api: TestApi, sessionToken: string, deviceName: string) {
  const { body } = await call(api.app, 'POST', '/api/auth/handoff', { sessionToken });
  return call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken: body.handoffToken, deviceName });
}

const devicesOf = async (api: TestApi, sessionToken: string) =>
  (await call(api.app, 'POST', '/api/auth/devices', { sessionToken })).body.devices as Array<Record<string, string>>;

describeApi('WireGuard devices', { layer: 'http', verifier, env }, (api) => {
  test('GET /api/vpn/servers answers the demo catalogue: a server in the US and one in Nigeria, with real-format keys', async () => {
    const { status, body } = await call(api.app, 'GET', '/api/vpn/servers');
    expect(status).toBe(200);
    const servers = body.servers as Array<Record<string, unknown>>;
    expect(servers.map((server) => [server.country, server.city])).toEqual([
      ['US', 'New York'],
      ['NG', 'Lagos'],
    ]);
    for (const server of servers) {
      expect(Buffer.from(server.publicKey as string, 'base64')).toHaveLength(32);
      expect(server).toMatchObject({ endpointPort: 51820, dns: expect.arrayContaining([expect.any(String)]) });
    }
  });

  test('a key must be base64 of exactly 32 bytes and the name 1 to 50 characters (400 naming the field)', async () => {
    const { sessionToken } = await subscriber(api, 'ada');
    const bad = [
      Buffer.alloc(31, 1).toString('base64'),
      Buffer.alloc(33, 1).toString('base64'),
      'not a key at all',
      `${newPublicKey().slice(0, 42)}B=`, // 32 bytes written non-canonically (bits past the 256th set)
      `${newPublicKey().slice(0, 43)}`,
    ];
    for (const publicKey of bad) {
      const answer = await registerKey(api.app, sessionToken, publicKey);
      expect(answer.status, publicKey).toBe(400);
      expect(answer.body).toMatchObject({ success: false, code: 'validation_failed', error: expect.stringContaining('publicKey') });
    }
    for (const name of ['', '   ', 'x'.repeat(51)]) {
      const answer = await registerKey(api.app, sessionToken, newPublicKey(), name);
      expect(answer.status, name).toBe(400);
      expect(answer.body.error).toContain('name');
    }
    expect((await registerKey(api.app, sessionToken, newPublicKey(), 'x'.repeat(50))).status).toBe(200);
    expect(await devicesOf(api, sessionToken)).toHaveLength(1);
  });

  test('a registered key gets an IPv4 /32 of 10.64.0.0/10 and an IPv6 /128 of the ULA pool, and is listed as a device', async () => {
    const { sessionToken } = await subscriber(api, 'ada');
    const publicKey = newPublicKey();
    const { status, body } = await registerKey(api.app, sessionToken, publicKey, 'Phone');
    expect(status).toBe(200);
    const device = body.device as Record<string, string>;
    expect(device).toMatchObject({ id: expect.stringMatching(/^wgk_/), kind: 'wireguard', name: 'Phone', publicKey, createdAt: expect.any(String) });
    expect(ipaddr.parse(device.ipv4Address!).match(ipaddr.parseCIDR('10.64.0.0/10'))).toBe(true);
    expect(ipaddr.parse(device.ipv6Address!).match(ipaddr.parseCIDR(api.config.addressPools.ipv6.cidr))).toBe(true);
    expect(await devicesOf(api, sessionToken)).toEqual([
      { id: device.id, kind: 'wireguard', deviceName: 'Phone', createdAt: device.createdAt, publicKey, ipv4Address: device.ipv4Address, ipv6Address: device.ipv6Address },
    ]);

    // The account's activity tells of it, to the day, and of its removal.
    expect((await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken, deviceId: device.id })).status).toBe(200);
    const activity = await call(api.app, 'POST', '/api/account/activity', { sessionToken });
    expect(activity.body.items).toEqual([
      { kind: 'device_removed', by: 'customer', date: new Date().toISOString().slice(0, 10), detail: { deviceName: 'Phone' } },
      { kind: 'device_added', by: 'customer', date: new Date().toISOString().slice(0, 10), detail: { deviceName: 'Phone' } },
    ]);
  });

  // Issue 46, item 9: only the key's owner is told it is in use; a stranger gets the answer any refused key gets.
  test('a key the account has is 409 key_in_use; another account\'s is 400 key_refused, as a removed key is for 5 minutes', async () => {
    const ada = await subscriber(api, 'ada');
    const bob = await subscriber(api, 'bob');
    const publicKey = newPublicKey();
    const registered = await registerKey(api.app, ada.sessionToken, publicKey);
    expect(registered.status).toBe(200);
    const stranger = await registerKey(api.app, bob.sessionToken, publicKey);
    expect(stranger).toMatchObject({ status: 400, body: { success: false, code: 'key_refused', error: 'This key cannot be used. Make a new key and try again.' } });
    // Word for word what the all-zero key gets: nothing says the key exists elsewhere.
    expect(stranger.body).toEqual((await registerKey(api.app, bob.sessionToken, Buffer.alloc(32).toString('base64'))).body);
    expect((await registerKey(api.app, ada.sessionToken, publicKey)).body.code).toBe('key_in_use');

    const deviceId = (registered.body.device as { id: string }).id;
    expect((await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken: ada.sessionToken, deviceId })).status).toBe(200);
    expect(await devicesOf(api, ada.sessionToken)).toEqual([]);
    expect((await registerKey(api.app, bob.sessionToken, publicKey)).body.code).toBe('key_refused');

    // Five minutes later (the removal moved back in time) the key may be registered again.
    await api.database.db
      .update(removedWireguardKeys)
      .set({ removedAt: new Date(Date.now() - 5 * 60_000 - 1000) })
      .where(eq(removedWireguardKeys.publicKey, publicKey));
    expect((await registerKey(api.app, bob.sessionToken, publicKey)).status).toBe(200);
  });

  test('desktop sessions and keys count together against the limit of 10: 409 device_limit names the limit and the account page', async () => {
    const { sessionToken } = await subscriber(api, 'ada');
    expect((await desktopSession(api, sessionToken, 'MacBook')).status).toBe(200);
    for (let index = 0; index < 9; index += 1) expect((await registerKey(api.app, sessionToken, newPublicKey(), `Key ${index}`)).status).toBe(200);
    const refused = await registerKey(api.app, sessionToken, newPublicKey());
    expect(refused).toMatchObject({ status: 409, body: { success: false, code: 'device_limit' } });
    expect(refused.body.error).toContain('10 devices');
    expect(refused.body.error).toContain('http://veil.test/account');
    // The desktop app cannot take an eleventh place either.
    expect((await desktopSession(api, sessionToken, 'ThinkPad')).body.code).toBe('device_limit');

    const devices = await devicesOf(api, sessionToken);
    expect(devices.map((device) => device.kind).sort()).toEqual([...Array(9).fill('wireguard'), 'desktop'].sort());
    const key = devices.find((device) => device.kind === 'wireguard')!;
    expect((await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken, deviceId: key.id })).status).toBe(200);
    expect((await desktopSession(api, sessionToken, 'ThinkPad')).status).toBe(200);
  });

  test("a desktop session attaches its own key (one device, not two); a second call replaces it", async () => {
    const { sessionToken } = await subscriber(api, 'ada');
    const desktop = await desktopSession(api, sessionToken, 'MacBook');
    const desktopToken = desktop.body.sessionToken as string;
    const first = newPublicKey();
    const attached = await registerKey(api.app, desktopToken, first, 'ignored');
    expect(attached).toMatchObject({ status: 200, body: { device: { kind: 'desktop', name: 'MacBook', publicKey: first } } });
    const second = newPublicKey();
    const replaced = await registerKey(api.app, desktopToken, second);
    expect(replaced.body.device).toMatchObject({ kind: 'desktop', publicKey: second });
    expect((replaced.body.device as { ipv4Address: string }).ipv4Address).not.toBe((attached.body.device as { ipv4Address: string }).ipv4Address);

    const devices = await devicesOf(api, sessionToken);
    expect(devices).toEqual([expect.objectContaining({ kind: 'desktop', deviceName: 'MacBook', publicKey: second, lastUsedAt: expect.any(String) })]);
    const rows = await api.database.db.select().from(wireguardKeys);
    expect(rows.map((row) => row.publicKey)).toEqual([second]);
    // The replaced key is blocked like any removed one.
    expect((await registerKey(api.app, sessionToken, first)).body.code).toBe('key_refused');

    // Revoking the desktop session takes its key with it.
    expect((await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken, deviceId: devices[0]!.id })).status).toBe(200);
    expect(await api.database.db.select().from(wireguardKeys)).toEqual([]);
  });

  test('rotation: a new key with new addresses replaces the old one at once; another account cannot rotate it', async () => {
    const ada = await subscriber(api, 'ada');
    const bob = await subscriber(api, 'bob');
    const old = (await registerKey(api.app, ada.sessionToken, newPublicKey(), 'Router')).body.device as { id: string; publicKey: string; ipv4Address: string; ipv6Address: string };
    const publicKey = newPublicKey();
    expect((await rotate(api.app, bob.sessionToken, old.id, publicKey)).status).toBe(404);
    const rotated = await rotate(api.app, ada.sessionToken, old.id, publicKey);
    expect(rotated.status).toBe(200);
    const device = rotated.body.device as Record<string, string>;
    expect(device).toMatchObject({ kind: 'wireguard', name: 'Router', publicKey });
    expect(device.ipv4Address).not.toBe(old.ipv4Address);
    expect(device.ipv6Address).not.toBe(old.ipv6Address);
    expect((await devicesOf(api, ada.sessionToken)).map((each) => each.publicKey)).toEqual([publicKey]);
    expect((await registerKey(api.app, bob.sessionToken, old.publicKey!)).body.code).toBe('key_refused');
    // Issue 45 item 6: the account's activity says "Key replaced", not a removal and an addition.
    const activity = await call(api.app, 'POST', '/api/account/activity', { sessionToken: ada.sessionToken });
    expect((activity.body.items as Array<{ kind: string; detail: unknown }>).map(({ kind, detail }) => ({ kind, detail }))).toEqual([
      { kind: 'key_replaced', detail: { deviceName: 'Router' } },
      { kind: 'device_added', detail: { deviceName: 'Router' } },
    ]);
  });

  test("a device's kind is read from its row, not from its id's shape: a key whose id has no wgk_ prefix rotates and is removed (issue 49, item 2)", async () => {
    const { sessionToken } = await subscriber(api, 'ada');
    const added = (await registerKey(api.app, sessionToken, newPublicKey(), 'Old router')).body.device as { id: string };
    const id = `dev_${Date.now()}`;
    await api.database.db.update(wireguardKeys).set({ id }).where(eq(wireguardKeys.id, added.id));
    const rotated = await rotate(api.app, sessionToken, id, newPublicKey());
    expect(rotated.status).toBe(200);
    const device = (rotated.body.device as { id: string; kind: string; name: string });
    expect(device).toMatchObject({ kind: 'wireguard', name: 'Old router' });
    await api.database.db.update(wireguardKeys).set({ id }).where(eq(wireguardKeys.id, device.id));
    const revoked = await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken, deviceId: id });
    expect(revoked.body).toEqual({ success: true, peerListVersion: expect.any(Number) });
    expect(await devicesOf(api, sessionToken)).toEqual([]);
  });

  test('the all-zero key, the other low-order points and the servers\' own keys are refused as device keys (issue 46, item 9)', async () => {
    const { sessionToken } = await subscriber(api, 'ada');
    const desktopToken = (await desktopSession(api, sessionToken, 'MacBook')).body.sessionToken as string;
    const lowOrder = ['00'.repeat(32), `01${'00'.repeat(31)}`, `ec${'ff'.repeat(30)}7f`, `ed${'ff'.repeat(31)}`].map((hex) => Buffer.from(hex, 'hex').toString('base64'));
    const serverKeys = api.config.vpnServers.servers.map((server) => server.publicKey);
    for (const publicKey of [...lowOrder, ...serverKeys]) {
      for (const token of [sessionToken, desktopToken]) {
        expect(await registerKey(api.app, token, publicKey), publicKey).toMatchObject({ status: 400, body: { code: 'key_refused' } });
      }
    }
    expect(await api.database.db.select().from(wireguardKeys)).toEqual([]);
  });

  test('a web session adds a key only with a sign-in within 10 minutes: 401 reauth_required otherwise (issue 46, item 9)', async () => {
    const { sessionToken } = await subscriber(api, 'ada');
    const withoutSignIn = await register(api.app, sessionToken, newPublicKey());
    expect(withoutSignIn).toMatchObject({ status: 401, body: { success: false, code: 'reauth_required', error: 'For your security, please sign in again to add a device.' } });
    // Another person's fresh sign-in is not this account's.
    await subscriber(api, 'bob');
    expect((await register(api.app, sessionToken, newPublicKey(), 'Phone', 'bob')).body.code).toBe('account_mismatch');
    expect(await api.database.db.select().from(wireguardKeys)).toEqual([]);
    expect((await register(api.app, sessionToken, newPublicKey(), 'Phone', 'ada')).status).toBe(200);
  });

  test("replacing a key wants a sign-in within 10 minutes too: 401 reauth_required, another person's sign-in 403; the old key stays (issue 46, item 9)", async () => {
    const { sessionToken } = await subscriber(api, 'ada');
    await subscriber(api, 'bob');
    const old = (await registerKey(api.app, sessionToken, newPublicKey(), 'Router')).body.device as { id: string; publicKey: string };
    const stale = await rotate(api.app, sessionToken, old.id, newPublicKey(), '');
    expect(stale).toMatchObject({ status: 401, body: { success: false, code: 'reauth_required', error: "For your security, please sign in again to replace a device's key." } });
    expect((await rotate(api.app, sessionToken, old.id, newPublicKey(), 'bob')).body.code).toBe('account_mismatch');
    // Ada's own sign-in of 11 minutes ago is refused like none, for adding as for replacing: the one rule for a new key.
    expect((await rotate(api.app, sessionToken, old.id, newPublicKey(), 'signed-in-long-ago:ada')).body.code).toBe('reauth_required');
    expect((await register(api.app, sessionToken, newPublicKey(), 'Phone', 'signed-in-long-ago:ada')).body.code).toBe('reauth_required');
    expect((await devicesOf(api, sessionToken)).map((device) => device.publicKey)).toEqual([old.publicKey]);
    expect((await rotate(api.app, sessionToken, old.id, newPublicKey())).status).toBe(200);
  });

  test('a desktop session sets its own key right after its hand-off without a sign-in; later it pairs again (issue 46, item 9)', async () => {
    const { sessionToken } = await subscriber(api, 'ada');
    const desktopToken = (await desktopSession(api, sessionToken, 'MacBook')).body.sessionToken as string;
    const first = newPublicKey();
    expect((await registerKey(api.app, desktopToken, first)).status).toBe(200);
    // Eleven minutes after the hand-off: the same key again is still the key it has, a new one wants a new pairing.
    await api.database.db.update(sessions).set({ createdAt: new Date(Date.now() - 11 * 60_000) }).where(eq(sessions.kind, 'desktop'));
    expect((await registerKey(api.app, desktopToken, first)).status).toBe(200);
    expect((await registerKey(api.app, desktopToken, newPublicKey())).body.code).toBe('reauth_required');
  });

  test('a key added on the website owes the "new device" e-mail naming it, and shows in the account activity (issue 46, item 9)', async () => {
    const { sessionToken, userId } = await subscriber(api, 'ada');
    const device = (await registerKey(api.app, sessionToken, newPublicKey(), 'Garage router')).body.device as { id: string };
    const owed = await api.database.statement('owed_new_key_mail', `SELECT data FROM "${api.database.jobSchema}".job WHERE name = 'mail' AND data->>'userId' = $1 AND data->>'kind' = 'new_device'`)([userId]);
    expect(owed.map(([data]) => data)).toEqual([expect.objectContaining({ kind: 'new_device', keyId: device.id, userId })]);
    const activity = (await call(api.app, 'POST', '/api/account/activity', { sessionToken })).body.items as Array<{ kind: string; detail: object }>;
    expect(activity).toContainEqual(expect.objectContaining({ kind: 'device_added', detail: { deviceName: 'Garage router' } }));
  });

  test('a desktop session may not register devices for the account, rotate or revoke them', async () => {
    const { sessionToken } = await subscriber(api, 'ada');
    const key = (await registerKey(api.app, sessionToken, newPublicKey())).body.device as { id: string };
    const desktopToken = (await desktopSession(api, sessionToken, 'MacBook')).body.sessionToken as string;
    const rotate = await call(api.app, 'POST', '/api/vpn/devices/rotate', { sessionToken: desktopToken, deviceId: key.id, publicKey: newPublicKey() });
    expect(rotate).toMatchObject({ status: 403, body: { code: 'website_only' } });
    expect((await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken: desktopToken, deviceId: key.id })).body.code).toBe('website_only');
  });
});

// A pool of 30 addresses, so 20 registrations at once draw the same address often.
const smallPool = { ...env, VPN_IPV4_POOL: '10.64.0.0/27', VPN_IPV6_POOL: 'fd00:1:2::/123' };

describeApi('tunnel addresses', { layer: 'sql', verifier, env: smallPool }, (first, driver) => {
  let second: TestApi;
  beforeAll(async () => {
    // On PostgreSQL a second instance with its own connections on the same database; PGlite is one process's.
    second = driver === 'postgres' ? await createTestApi({ driver, verifier, env: smallPool, sharedSchema: first.schema }) : first;
  });
  afterAll(async () => {
    if (second !== first) await second?.close();
  });

  test('an account without access gets no key and no tunnel address: never subscribed, ended, refunded, unpaid, a desktop session too: 403 no_access (issue 46, item 9)', async () => {
    const noSubscription = { status: 403, body: { success: false, code: 'no_access', error: 'A device can be added only while you have an active subscription. Subscribe on your account page, then add it.' } };
    const never = await signIn(first, 'never');
    expect(await registerKey(first.app, never.sessionToken, newPublicKey())).toMatchObject(noSubscription);
    const desktopToken = (await desktopSession(first, never.sessionToken, 'MacBook')).body.sessionToken as string;
    expect(await registerKey(second.app, desktopToken, newPublicKey())).toMatchObject(noSubscription);

    const refunded = await subscriber(first, 'refunded');
    expect((await call(first.app, 'POST', '/api/subscription/refund', { idToken: 'refunded' })).status).toBe(200);
    expect(await registerKey(first.app, refunded.sessionToken, newPublicKey())).toMatchObject(noSubscription);

    const ended = await subscriber(first, 'ended');
    const key = (await registerKey(first.app, ended.sessionToken, newPublicKey(), 'Router')).body.device as { id: string; ipv4Address: string };
    await first.database.db.update(subscriptions).set({ status: 'cancelled' }).where(eq(subscriptions.userId, ended.userId));
    expect(await registerKey(second.app, ended.sessionToken, newPublicKey())).toMatchObject(noSubscription);
    // A kept device gets no new key (and no new address) either: Replace key is refused the same way.
    expect(await rotate(first.app, ended.sessionToken, key.id, newPublicKey())).toMatchObject(noSubscription);

    const unpaid = await subscriber(first, 'unpaid');
    await first.database.db.update(subscriptions).set({ status: 'past_due', unpaid: true }).where(eq(subscriptions.userId, unpaid.userId));
    expect(await registerKey(first.app, unpaid.sessionToken, newPublicKey())).toMatchObject({ status: 403, body: { code: 'no_access', error: expect.stringContaining('Update your payment method') } });

    // Nothing was drawn: the ended account's device, from when it had access, is the only key with an address.
    const rows = await first.database.db.select().from(wireguardKeys);
    expect(rows.map((row) => row.ipv4Address)).toEqual([key.ipv4Address]);
  });

  test('20 concurrent registrations on two instances get 20 different addresses of each family', async () => {
    const accounts = await Promise.all(Array.from({ length: 10 }, (_, index) => subscriber(first, `user${index}`)));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => registerKey(index % 2 ? second.app : first.app, accounts[index % 10]!.sessionToken, newPublicKey(), `Device ${index}`)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    const devices = answers.map((answer) => answer.body.device as { ipv4Address: string; ipv6Address: string });
    expect(new Set(devices.map((device) => device.ipv4Address)).size).toBe(20);
    expect(new Set(devices.map((device) => device.ipv6Address)).size).toBe(20);
    for (const device of devices) {
      const offset = ipaddr.parse(device.ipv4Address).toByteArray()[3]!;
      // Neither the network, the servers' .1 nor the broadcast address.
      expect(offset).toBeGreaterThanOrEqual(2);
      expect(offset).toBeLessThanOrEqual(30);
    }
  });
});
