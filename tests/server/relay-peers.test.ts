/**
 * The peer list the VPN servers poll (issue 29, items 5 and 6): relay tokens, the full list with its ETag
 * and 304, `since` with `removed`, 410 when the log no longer reaches back, the last-poll metric; and access
 * following the subscription, driven as a customer's year drives it: the local checkout's billing clock,
 * the money-back refund, Stripe-format events, deletion, revocation and rotation.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { purgeExpiredData } from '../../server/domain/privacy/retention-purge';
import { localBillingClock, peerChanges, subscriptions, wireguardKeys } from '../../server/db/schema';
import { call, createTestApi, nameVerifier as verifier, subscribe, type TestApi } from '../support/server-harness';
import { describeStripeApi } from '../support/stripe-api';
import { listedKeys, newPublicKey, poll, registerKey, RELAY_TOKEN } from '../support/wireguard';

const env = { RATE_LIMIT_SCALE: '10', RELAY_TOKENS: `test-relay:${RELAY_TOKEN},other-relay:another-token-for-tests-abcdef0123456789` };

/** The ID token each web session signed in with (nameVerifier: just now), sent with its keys (issue 46, item 9). */
const idTokens = new Map<string, string>();

async function signIn(api: TestApi, name: string) {
  const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
  idTokens.set(body.sessionToken as string, name);
  return { userId: (body.user as { id: string }).id, sessionToken: body.sessionToken as string };
}

/** Signs in and pays through the local checkout. */
async function subscriber(api: TestApi, name: string) {
  const user = await signIn(api, name);
  await subscribe(api.app, name);
  return user;
}

async function addKey(api: TestApi, sessionToken: string, name = 'Laptop') {
  const publicKey = newPublicKey();
  const answer = await registerKey(api.app, sessionToken, publicKey, name, idTokens.get(sessionToken));
  expect(answer.status).toBe(200);
  return answer.body.device as { id: string; publicKey: string; ipv4Address: string; ipv6Address: string };
}

const versionOf = async (api: TestApi) => (await poll(api.app)).body.version as number;
/** How far the local billing clock runs ahead of real time, in ms. */
async function clockAhead(api: TestApi): Promise<number> {
  const [row] = await api.database.db.select().from(localBillingClock);
  return (row?.offsetSeconds ?? 0) * 1000;
}
const advance = (api: TestApi, by: string, decline = false) => call(api.app, 'POST', '/api/dev/billing-clock/advance', { by, ...(decline ? { decline } : {}) });

describe('relay tokens', () => {
  test('without RELAY_TOKENS the relay API does not exist (404); a missing or wrong token is 401', async () => {
    const none = await createTestApi({ driver: 'pglite', verifier });
    const withTokens = await createTestApi({ driver: 'pglite', verifier, env });
    try {
      expect(await poll(none.app)).toMatchObject({ status: 404, body: { success: false, code: 'no_such_call' } });
      for (const headers of [{ authorization: '' }, { authorization: 'Bearer wrong' }, { authorization: `Basic ${RELAY_TOKEN}` }, { authorization: `Bearer ${RELAY_TOKEN}x` }]) {
        expect(await poll(withTokens.app, '', headers)).toMatchObject({ status: 401, body: { success: false, code: 'relay_token_invalid' } });
      }
      // Refused before the query is read: a wrong token learns nothing, not even that `since` is malformed.
      expect((await poll(withTokens.app, '?since=abc', { authorization: 'Bearer wrong' })).status).toBe(401);
      expect(await poll(withTokens.app, '?since=abc')).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
      expect(await poll(withTokens.app)).toMatchObject({ status: 200, body: { version: 0, peers: [] } });
    } finally {
      await none.close();
      await withTokens.close();
    }
  });
});

describeApi('the peer list', { layer: 'sql', verifier, env }, (api) => {
  test('the full list carries an ETag; If-None-Match with it answers 304 until the list changes', async () => {
    const { sessionToken } = await subscriber(api, 'ada');
    const key = await addKey(api, sessionToken);
    const first = await poll(api.app);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ version: 1, peers: [{ publicKey: key.publicKey, ipv4Address: key.ipv4Address, ipv6Address: key.ipv6Address, expiresAt: expect.any(String) }] });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const unchanged = await poll(api.app, '', { 'if-none-match': etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.etag).toBe(etag);

    await addKey(api, sessionToken, 'Phone');
    const changed = await poll(api.app, '', { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect((changed.body.peers as unknown[]).length).toBe(2);
  });

  test('?since= answers the changes after that version, removals by public key; a key added and removed since is only removed', async () => {
    const { sessionToken } = await subscriber(api, 'ada');
    const kept = await addKey(api, sessionToken, 'Kept');
    const since = await versionOf(api);
    const added = await addKey(api, sessionToken, 'Added');
    const brief = await addKey(api, sessionToken, 'Brief');
    expect((await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken, deviceId: brief.id })).status).toBe(200);
    expect((await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken, deviceId: kept.id })).status).toBe(200);

    const changes = await poll(api.app, `?since=${since}`);
    expect(changes.status).toBe(200);
    expect(changes.body).toEqual({
      version: since + 4,
      added: [{ publicKey: added.publicKey, ipv4Address: added.ipv4Address, ipv6Address: added.ipv6Address, expiresAt: expect.any(String) }],
      removed: [brief.publicKey, kept.publicKey],
    });
    expect((await poll(api.app, `?since=${since + 4}`)).body).toEqual({ version: since + 4, added: [], removed: [] });
  });

  test('a since poll reads the change log, not the devices: 410 when the version is older than the log keeps, or unknown', async () => {
    const { sessionToken } = await subscriber(api, 'ada');
    await addKey(api, sessionToken);
    await addKey(api, sessionToken);
    // The first change is older than the log keeps (7 days): the daily clean-up prunes it, not a poll.
    await api.database.db.update(peerChanges).set({ changedAt: new Date(Date.now() - 8 * 86_400_000) }).where(eq(peerChanges.version, 1));
    expect((await poll(api.app, '?since=1')).status).toBe(200);
    // since=0 is a relay with nothing yet: the full list (issue 46, item 13).
    expect(await poll(api.app, '?since=0')).toMatchObject({ status: 200, body: { version: 2, peers: [expect.any(Object), expect.any(Object)] } });
    expect((await poll(api.app, '?since=99')).status).toBe(410);

    // Deleting every key row leaves the change log alone: a since poll answers from it all the same.
    await api.database.db.execute(sql`delete from ${wireguardKeys}`);
    expect((await poll(api.app, '?since=1')).body).toMatchObject({ version: 2, added: [expect.any(Object)] });

    // Pruned up to version 2 by the daily clean-up: since=1 is below what the log keeps.
    await api.database.db.update(peerChanges).set({ changedAt: new Date(Date.now() - 8 * 86_400_000) }).where(eq(peerChanges.version, 2));
    await poll(api.app);
    expect((await poll(api.app, '?since=1')).status).toBe(200);
    expect((await purgeExpiredData(api.database.db, 0)).peerChanges).toBe(2);
    expect(await poll(api.app, '?since=1')).toMatchObject({ status: 410, body: { success: false, code: 'version_gone' } });
  });

  test('every listed key carries expiresAt: the paid-through date plus the grace period, in the full list and in `added`; a renewal re-adds it with the new date', async () => {
    await addKey(api, (await subscriber(api, 'bystander')).sessionToken);
    const { userId, sessionToken } = await subscriber(api, 'ada');
    const since = await versionOf(api);
    const key = await addKey(api, sessionToken);
    const [subscription] = await api.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    const paidThrough = subscription!.currentPeriodEnd!.getTime();
    const expected = new Date(paidThrough + 3 * 86_400_000).toISOString();
    expect((await poll(api.app)).body.peers).toContainEqual(expect.objectContaining({ publicKey: key.publicKey, expiresAt: expected }));
    expect((await poll(api.app, `?since=${since}`)).body.added).toEqual([expect.objectContaining({ publicKey: key.publicKey, expiresAt: expected })]);

    // The renewal moves the paid-through date a year on: the key is re-added with its new expiry.
    const renewed = await versionOf(api);
    expect(await advance(api, '365d')).toMatchObject({ status: 200 });
    const [after] = await api.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    expect(after!.currentPeriodEnd!.getTime()).toBeGreaterThan(paidThrough);
    // The local billing clock runs ahead of real time by what was advanced: the relays enforce real time.
    const offset = -(await clockAhead(api));
    const changes = (await poll(api.app, `?since=${renewed}`)).body;
    expect(changes.removed).toEqual([]);
    const reAdded = (changes.added as Array<{ publicKey: string; expiresAt: string }>).find((peer) => peer.publicKey === key.publicKey);
    expect(Math.abs(Date.parse(reAdded!.expiresAt) - (after!.currentPeriodEnd!.getTime() + 3 * 86_400_000 + offset))).toBeLessThan(60_000);
  });

  test("a past due key's expiry is when the retries must be over (30 days) plus the grace period; a desktop key's is its session's end", async () => {
    const { userId, sessionToken } = await subscriber(api, 'declined');
    // Past due (as a declined renewal leaves it), set behind the API's back: a key added now carries the rule.
    await api.database.db.update(subscriptions).set({ status: 'past_due' }).where(eq(subscriptions.userId, userId));
    const key = await addKey(api, sessionToken);
    const { body } = await call(api.app, 'POST', '/api/auth/handoff', { sessionToken });
    const desktop = await call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken: body.handoffToken, deviceName: 'MacBook' });
    const desktopKey = newPublicKey();
    expect((await registerKey(api.app, desktop.body.sessionToken as string, desktopKey)).status).toBe(200);
    const [subscription] = await api.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    const [desktopRow] = await api.database.db.select().from(wireguardKeys).where(eq(wireguardKeys.publicKey, desktopKey));
    const peers = (await poll(api.app)).body.peers as Array<{ publicKey: string; expiresAt: string }>;
    const expiryOf = (publicKey: string) => peers.find((peer) => peer.publicKey === publicKey)!.expiresAt;
    expect(expiryOf(desktopKey)).toBe(desktopRow!.expiresAt!.toISOString());
    expect(expiryOf(key.publicKey)).toBe(new Date(subscription!.currentPeriodEnd!.getTime() + 33 * 86_400_000).toISOString());
  });

  test("each relay's last poll is a metric labelled by its relay id", async () => {
    const before = Date.now() / 1000;
    await poll(api.app);
    const metrics = (await api.app.inject({ method: 'GET', url: '/api/metrics' })).body;
    const line = metrics.split('\n').find((each) => each.startsWith('veil_relay_last_poll_seconds{relay="test-relay"}'));
    expect(Number(line?.split(' ')[1])).toBeGreaterThanOrEqual(Math.floor(before));
    expect(metrics).not.toContain('relay="other-relay"');
    expect(metrics).not.toContain(RELAY_TOKEN);
  });

  test('a key is listed only while the account has access: before subscribing none is taken (403 no_access), the list is unchanged', async () => {
    const bystander = await addKey(api, (await subscriber(api, 'bystander')).sessionToken);
    const { sessionToken } = await signIn(api, 'ada');
    const since = await versionOf(api);
    const refused = await registerKey(api.app, sessionToken, newPublicKey(), 'Laptop', idTokens.get(sessionToken));
    expect(refused).toMatchObject({ status: 403, body: { success: false, code: 'no_access' } });
    expect(await versionOf(api)).toBe(since);
    expect(await listedKeys(api.app)).toEqual([bystander.publicKey]);
    // Once paid, the key is taken and added to the list at once.
    await subscribe(api.app, 'ada');
    const key = await addKey(api, sessionToken);
    expect((await poll(api.app, `?since=${since}`)).body).toMatchObject({ added: [expect.objectContaining({ publicKey: key.publicKey })], removed: [] });
    expect(await listedKeys(api.app)).toEqual([key.publicKey, bystander.publicKey].sort());
  });

  test('the period ending with renewal off takes the keys off; subscribing again brings them back', async () => {
    const { sessionToken } = await subscriber(api, 'leaver');
    const key = await addKey(api, sessionToken);
    const other = await subscriber(api, 'stayer');
    const otherKey = await addKey(api, other.sessionToken);
    expect((await call(api.app, 'POST', '/api/subscription/cancel', { idToken: 'leaver' })).status).toBe(200);
    // Renewal off changes nothing until the period ends.
    expect(await listedKeys(api.app)).toEqual([key.publicKey, otherKey.publicKey].sort());
    const since = await versionOf(api);
    expect(await advance(api, '366d')).toMatchObject({ status: 200, body: { ended: 1 } });
    expect((await poll(api.app, `?since=${since}`)).body).toMatchObject({ added: [], removed: [key.publicKey] });
    expect(await listedKeys(api.app)).toEqual([otherKey.publicKey]);

    // The device survived the lapse: buying again lists it again with its addresses.
    await subscribe(api.app, 'leaver');
    expect((await poll(api.app)).body.peers).toContainEqual({ publicKey: key.publicKey, ipv4Address: key.ipv4Address, ipv6Address: key.ipv6Address, expiresAt: expect.any(String) });
  });

  test('a past due keeps the keys listed; the past due ending takes them off', async () => {
    const { sessionToken } = await subscriber(api, 'declined');
    const key = await addKey(api, sessionToken);
    expect(await advance(api, '366d', true)).toMatchObject({ body: { declined: 1 } });
    expect((await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).body.subscription).toMatchObject({ status: 'past_due' });
    expect(await listedKeys(api.app)).toEqual([key.publicKey]);
    expect(await advance(api, '31d')).toMatchObject({ body: { ended: 1 } });
    expect(await listedKeys(api.app)).toEqual([]);
  });

  test('the money-back refund takes the keys off at once', async () => {
    const { sessionToken } = await subscriber(api, 'refunded');
    const key = await addKey(api, sessionToken);
    const since = await versionOf(api);
    expect((await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'refunded' })).status).toBe(200);
    expect((await poll(api.app, `?since=${since}`)).body).toMatchObject({ removed: [key.publicKey] });
  });

  test('an active subscription past its end by more than the grace period, with no event, is lapsed: its keys go at the next poll', async () => {
    const { userId, sessionToken } = await subscriber(api, 'silent');
    await addKey(api, sessionToken);
    await api.database.db
      .update(subscriptions)
      .set({ currentPeriodEnd: new Date(Date.now() - 4 * 86_400_000) })
      .where(eq(subscriptions.userId, userId));
    expect(await listedKeys(api.app)).toEqual([]);
  });

  test('revocation and rotation take the old key off at the next poll; deletion removes every key and frees the addresses', async () => {
    const { userId, sessionToken } = await subscriber(api, 'ada');
    const revoked = await addKey(api, sessionToken, 'Revoked');
    const rotated = await addKey(api, sessionToken, 'Rotated');
    const since = await versionOf(api);
    await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken, deviceId: revoked.id });
    const newKey = newPublicKey();
    expect((await call(api.app, 'POST', '/api/vpn/devices/rotate', { sessionToken, deviceId: rotated.id, publicKey: newKey, idToken: 'ada' })).status).toBe(200);
    const changes = (await poll(api.app, `?since=${since}`)).body;
    expect(changes.removed).toEqual([revoked.publicKey, rotated.publicKey]);
    expect(changes.added).toEqual([expect.objectContaining({ publicKey: newKey })]);

    const deletedSince = await versionOf(api);
    const deleted = await call(api.app, 'DELETE', '/api/auth/delete-account', { sessionToken, userId, email: 'ada@example.com' });
    expect(deleted.status).toBe(200);
    expect((await poll(api.app, `?since=${deletedSince}`)).body).toMatchObject({ added: [], removed: [newKey] });
    expect(await api.database.db.select().from(wireguardKeys)).toEqual([]);
  });

  test("a desktop session's own key leaves the list when it signs out", async () => {
    const { sessionToken } = await subscriber(api, 'ada');
    const { body } = await call(api.app, 'POST', '/api/auth/handoff', { sessionToken });
    const desktop = await call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken: body.handoffToken, deviceName: 'MacBook' });
    const desktopToken = desktop.body.sessionToken as string;
    const publicKey = newPublicKey();
    expect((await registerKey(api.app, desktopToken, publicKey)).status).toBe(200);
    expect(await listedKeys(api.app)).toEqual([publicKey]);
    expect((await call(api.app, 'POST', '/api/auth/signout', { sessionToken: desktopToken })).status).toBe(200);
    expect(await listedKeys(api.app)).toEqual([]);
  });
});

describeStripeApi('the peer list with Stripe', 'sql', env, ({ api, stripe, stripeEvent }) => {

  test('a Stripe cancellation (customer.subscription.deleted) takes the keys off; a new subscription brings them back', async () => {
    const { userId, sessionToken } = await signIn(api, 'stripe-customer');
    const subscription = stripe.addSubscription('sub_relay', 'cus_relay', userId);
    expect((await stripeEvent('customer.subscription.created', subscription)).status).toBe(200);
    const key = await addKey(api, sessionToken);
    expect(await listedKeys(api.app)).toEqual([key.publicKey]);

    const since = await versionOf(api);
    expect((await stripeEvent('customer.subscription.deleted', { ...subscription, status: 'canceled' })).status).toBe(200);
    expect((await poll(api.app, `?since=${since}`)).body).toMatchObject({ added: [], removed: [key.publicKey] });

    const again = stripe.addSubscription('sub_relay_again', 'cus_relay', userId);
    expect((await stripeEvent('customer.subscription.created', again)).status).toBe(200);
    expect(await listedKeys(api.app)).toEqual([key.publicKey]);
  });
});
