/**
 * The relay list under load (issue 46, item 13): a full poll costs one built answer per version, not a
 * recomputation; each relay token has its own rate limit (429, counted per relay id).
 */
import { expect, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { call, nameVerifier as verifier, type TestApi } from '../support/server-harness';
import { newPublicKey, poll, registerKey, RELAY_TOKEN } from '../support/wireguard';

const LAGOS_TOKEN = 'lagos-relay-token-for-tests-0123456789abcdef';
const metric = async (api: TestApi, line: string) =>
  Number(
    (await api.app.inject({ method: 'GET', url: '/api/metrics' })).body
      .split('\n')
      .find((each) => each.startsWith(`${line} `))
      ?.split(' ')[1] ?? 0,
  );

describeApi('full polls', { layer: 'http', verifier, env: { RATE_LIMIT_SCALE: '10', RELAY_TOKENS: `us-nyc-1:${RELAY_TOKEN},ng-lagos-1:${LAGOS_TOKEN}` } }, (api) => {
  test('every full poll of one version is the one answer built for it; a change builds the next', async () => {
    const signedIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: 'ada' });
    const checkout = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: 'ada', email: 'ada@example.com' });
    await api.app.inject({ method: 'POST', url: `${new URL(checkout.body.url as string).pathname}/pay` });
    await registerKey(api.app, signedIn.body.sessionToken as string, newPublicKey(), 'Laptop', 'ada');
    const builds = await metric(api, 'veil_relay_full_list_builds_total');
    const answers = [];
    for (let i = 0; i < 6; i += 1) answers.push(await poll(api.app, i % 2 ? '' : '?since=0', i % 3 ? {} : { authorization: `Bearer ${LAGOS_TOKEN}` }));
    expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).toBe(1);
    expect(answers[0]!.body).toMatchObject({ version: 1, peers: [expect.objectContaining({ expiresAt: expect.any(String) })] });
    expect(await metric(api, 'veil_relay_full_list_builds_total')).toBe(builds + 1);

    await registerKey(api.app, signedIn.body.sessionToken as string, newPublicKey(), 'Phone', 'ada');
    expect(((await poll(api.app)).body.peers as unknown[]).length).toBe(2);
    expect(await poll(api.app)).toMatchObject({ body: { version: 2 } });
    expect(await metric(api, 'veil_relay_full_list_builds_total')).toBe(builds + 2);
  });
});

// 300 calls a minute per token, times 0.01: 3. The per-address limit of such calls is 12.
describeApi('the per-token rate limit', { layer: 'http', verifier, env: { RATE_LIMIT_SCALE: '0.01', RELAY_TOKENS: `us-nyc-1:${RELAY_TOKEN},ng-lagos-1:${LAGOS_TOKEN}` } }, (api) => {
  test('a relay that calls too often gets 429 with Retry-After, counted by its id; another relay is not held back', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await poll(api.app)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await poll(api.app);
    expect(refused).toMatchObject({ status: 429, body: { success: false, code: 'rate_limited' } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await poll(api.app, '', { authorization: `Bearer ${LAGOS_TOKEN}` })).status).toBe(200);
    expect(await metric(api, 'veil_relay_calls_refused_total{relay="us-nyc-1"}')).toBe(2);
    // A wrong token is a 401 whatever the count: it is no relay's call.
    expect((await poll(api.app, '', { authorization: 'Bearer wrong' })).status).toBe(401);
  });
});
