/**
 * The staff console's servers table (issues 47 and 48): POST /api/staff/servers answers every VPN server's
 * status with the peer-list version it applied, for support and admin alike; a customer is refused.
 */
import { beforeAll, expect, inject, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { call } from '../support/server-harness';
import { staffUser } from '../support/staff';
import { poll, RELAY_TOKEN } from '../support/wireguard';

const LAGOS_TOKEN = 'lagos-relay-token-for-tests-0123456789abcdef';
const env = { RATE_LIMIT_SCALE: '10', RATE_LIMIT_SIGN_IN: '1000', RELAY_TOKENS: `us-nyc-1:${RELAY_TOKEN},ng-lagos-1:${LAGOS_TOKEN}` };
const emulatorHost = inject('authEmulatorHost');

describeApi('the staff servers table', { layer: 'http', emulatorHost, env }, (api) => {
  let support: { idToken: string };
  let customer: { idToken: string };
  beforeAll(async () => {
    support = await staffUser(emulatorHost, 'support');
    customer = await staffUser(emulatorHost, null);
  });

  test("each server's applied version beside its status; a customer is refused", async () => {
    expect((await poll(api.app, '?since=0')).status).toBe(200);
    const report = { versionApplied: 0, peers: 4, activePeers: 2, uptimeSeconds: 60, agentVersion: '1.2.3' };
    expect((await api.app.inject({ method: 'POST', url: '/api/relay/v1/health', headers: { authorization: `Bearer ${LAGOS_TOKEN}` }, payload: report })).statusCode).toBe(200);
    const answer = await call(api.app, 'POST', '/api/staff/servers', { idToken: support.idToken });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      success: true,
      role: 'support',
      version: 0,
      servers: [
        { id: 'us-nyc-1', online: false, confirmedVersion: 0, versionApplied: null, agentVersion: null },
        { id: 'ng-lagos-1', online: true, load: 1, confirmedVersion: 0, versionApplied: 0, agentVersion: '1.2.3' },
      ],
    });
    expect(await call(api.app, 'POST', '/api/staff/servers', { idToken: customer.idToken })).toMatchObject({ status: 403, body: { code: 'staff_forbidden' } });
  });
});
