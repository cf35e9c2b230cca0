/**
 * A removal is confirmed, not assumed (issue 47, item 2): a relay that polls `since=V` (or sends the ETag of
 * V, or reports versionApplied V) has applied V. The removal's answer carries the peer-list version it made;
 * POST /api/vpn/devices/removal-status says whether every catalogue server with a token has confirmed it,
 * and which lag.
 */
import { expect, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { call, nameVerifier as verifier, type TestApi } from '../support/server-harness';
import { newPublicKey, poll, registerKey, RELAY_TOKEN } from '../support/wireguard';

const LAGOS_TOKEN = 'lagos-relay-token-for-tests-0123456789abcdef';
const env = { RATE_LIMIT_SCALE: '10', RELAY_TOKENS: `us-nyc-1:${RELAY_TOKEN},ng-lagos-1:${LAGOS_TOKEN}` };

async function customerWithKey(api: TestApi, name: string) {
  const signedIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
  const sessionToken = signedIn.body.sessionToken as string;
  const checkout = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: name, email: `${name}@example.com` });
  await api.app.inject({ method: 'POST', url: `${new URL(checkout.body.url as string).pathname}/pay` });
  const registered = await registerKey(api.app, sessionToken, newPublicKey(), 'Laptop', name);
  return { sessionToken, deviceId: (registered.body.device as { id: string }).id };
}

const status = (api: TestApi, sessionToken: string, version: number) => call(api.app, 'POST', '/api/vpn/devices/removal-status', { sessionToken, version });

describeApi('removal confirmed by every server', { layer: 'http', verifier, env }, (api) => {
  test('the removal answers its version; confirmed once every server polled since it (or reported it applied), lagging names the others', async () => {
    const { sessionToken, deviceId } = await customerWithKey(api, 'ada');
    const removed = await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken, deviceId });
    expect(removed).toMatchObject({ status: 200, body: { success: true, peerListVersion: 2 } });
    const version = removed.body.peerListVersion as number;
    expect((await status(api, sessionToken, version)).body).toEqual({ success: true, confirmed: false, lagging: ['us-nyc-1', 'ng-lagos-1'] });

    // New York polls since the removal's version: it has applied it. A poll since an older one confirms nothing new.
    expect((await poll(api.app, `?since=${version}`)).status).toBe(200);
    expect((await poll(api.app, '?since=1', { authorization: `Bearer ${LAGOS_TOKEN}` })).status).toBe(200);
    expect((await status(api, sessionToken, version)).body).toEqual({ success: true, confirmed: false, lagging: ['ng-lagos-1'] });

    // Lagos reports the version applied.
    const report = { versionApplied: version, peers: 0, activePeers: 0, uptimeSeconds: 10, agentVersion: '1.0.0' };
    const reported = await api.app.inject({ method: 'POST', url: '/api/relay/v1/health', headers: { authorization: `Bearer ${LAGOS_TOKEN}` }, payload: report });
    expect(reported.statusCode).toBe(200);
    expect((await status(api, sessionToken, version)).body).toEqual({ success: true, confirmed: true, lagging: [] });
  });

  test('an ETag of the version confirms it too; a relay cannot confirm a version the list never reached', async () => {
    const { sessionToken } = await customerWithKey(api, 'ada');
    const full = await poll(api.app);
    expect((await poll(api.app, '', { 'if-none-match': full.headers.etag as string })).status).toBe(304);
    const report = { versionApplied: 999, peers: 0, activePeers: 0, uptimeSeconds: 10, agentVersion: '1.0.0' };
    await api.app.inject({ method: 'POST', url: '/api/relay/v1/health', headers: { authorization: `Bearer ${LAGOS_TOKEN}` }, payload: report });
    expect((await status(api, sessionToken, 1)).body).toEqual({ success: true, confirmed: true, lagging: [] });
    expect((await status(api, sessionToken, 2)).body).toEqual({ success: true, confirmed: false, lagging: ['us-nyc-1', 'ng-lagos-1'] });
  });

  test('the status call needs a session and a version number', async () => {
    expect(await status(api, 'not-a-session', 1)).toMatchObject({ status: 401, body: { success: false } });
    const { sessionToken } = await customerWithKey(api, 'ada');
    for (const version of [-1, 1.5, 'abc', null]) {
      expect(await call(api.app, 'POST', '/api/vpn/devices/removal-status', { sessionToken, version })).toMatchObject({ status: 400, body: { success: false, code: 'validation_failed' } });
    }
  });
});
