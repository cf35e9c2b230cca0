/**
 * The real API for the relay's proof (tests/relay/netns-proof.test.ts): the app as server/main.ts builds it
 * (tests/support/server-harness.ts: PGlite, the local checkout and its billing clock), listening on 127.0.0.1,
 * with a catalogue (VPN_SERVERS) naming the test's relay and its token (RELAY_TOKENS). Identities are the
 * harness's: an ID token is the person's name; `staff-admin` is an admin (its staff claim), and disabling an
 * account at the identity provider is a no-op here. Each customer's life is driven through the API's own calls.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VpnServer } from '../../../contract/api.ts';
import { signPayload } from '../../../server/payments/signature.ts';
import { call, createTestApi, postgresAvailable, type TestApi } from '../../support/server-harness.ts';
import { startStripeStandIn, type StripeStandIn } from '../../support/stripe-stand-in.ts';

const STAFF_TOKEN = 'staff-admin';
const STRIPE_WEBHOOK_SECRET = 'whsec_relay_proof';

export interface VeilApi {
  url: string;
  token: string;
  api: TestApi;
  /** The relay's catalogue entry as GET /api/vpn/servers answers it (what the account page builds with). */
  server(): Promise<VpnServer>;
  customer(name: string): Customer;
  advanceClock(by: string): Promise<void>;
  close(): Promise<void>;
}

export interface Customer {
  name: string;
  userId: string;
  sessionToken: string;
  signIn(): Promise<void>;
  subscribe(): Promise<void>;
  addDevice(publicKey: string): Promise<{ id: string; publicKey: string; ipv4Address: string; ipv6Address: string }>;
  revoke(deviceId: string): Promise<void>;
  refund(): Promise<void>;
  cancelRenewal(): Promise<void>;
  deleteAccount(): Promise<void>;
  disableByStaff(): Promise<void>;
  /** With Stripe: the customer's card issuer takes the payment back (a dispute opened, then closed lost). */
  loseDispute(): Promise<void>;
}

function ok(answer: { status: number; body: unknown }, what: string) {
  if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as Record<string, unknown>;
}

export async function startVeilApi({
  dir,
  serverId,
  publicKey,
  endpointHost,
  token,
  relayTokens = true,
  payments = 'local',
}: {
  dir: string;
  serverId: string;
  publicKey: string;
  endpointHost: string;
  token: string;
  /** false: no RELAY_TOKENS, so the relay calls do not exist (404). */
  relayTokens?: boolean;
  /** The payment provider: the local checkout and its billing clock, or Stripe (its local stand-in, events signed as Stripe signs them). */
  payments?: 'local' | 'stripe';
}): Promise<VeilApi> {
  const catalogue = join(dir, 'vpn-servers.json');
  writeFileSync(
    catalogue,
    JSON.stringify({
      servers: [
        { id: serverId, country: 'US', countryName: 'United States', city: 'New York', hostname: `${serverId}.vpn.veil.example`, endpointHost, endpointPort: 51820, publicKey, dns: ['10.64.0.1', 'fd76:6569:6c00::1'] },
      ],
    }),
  );
  const stripe: StripeStandIn | null = payments === 'stripe' ? await startStripeStandIn() : null;
  const stripeEnv: Record<string, string> = stripe
    ? { STRIPE_SECRET_KEY: 'sk_test_standin', STRIPE_PRICE_ID: 'price_yearly', STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE: stripe.url, STRIPE_TIMEOUT_MS: '1000' }
    : {};
  // PostgreSQL when it answers (a new schema migrates in about a second), else PGlite (about 15 s from nothing here).
  const api = await createTestApi({
    driver: (await postgresAvailable()) ? 'postgres' : 'pglite',
    env: { VPN_SERVERS: catalogue, ...(relayTokens ? { RELAY_TOKENS: `${serverId}:${token}` } : {}), RATE_LIMIT_SCALE: '100', ...stripeEnv },
    verifier: {
      verify: async (idToken: string) => ({
        subject: idToken,
        email: `${idToken}@example.com`,
        name: idToken,
        staffRole: idToken === STAFF_TOKEN ? 'admin' : null,
        authTime: Math.floor(Date.now() / 1000),
      }),
    },
    identityAdmin: { disable: async () => undefined, enable: async () => undefined },
  });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const address = api.app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const { app } = api;
  let eventNumber = 0;
  /** A Stripe event about `object`, delivered to the webhook signed as Stripe signs it. */
  const stripeEvent = async (type: string, object: object) => {
    const raw = JSON.stringify({ id: `evt_${(eventNumber += 1)}_${Date.now()}`, type, created: Math.floor(Date.now() / 1000) - 1, data: { object } });
    const response = await app.inject({
      method: 'POST',
      url: '/api/webhooks/payments',
      payload: raw,
      headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(raw, STRIPE_WEBHOOK_SECRET) },
    });
    if (response.statusCode !== 200) throw new Error(`${type}: ${response.statusCode} ${response.body}`);
  };

  return {
    url,
    token,
    api,
    server: async () => {
      const body = ok(await call(app, 'GET', '/api/vpn/servers'), 'servers');
      return (body.servers as VpnServer[]).find((server) => server.id === serverId)!;
    },
    advanceClock: async (by) => {
      ok(await call(app, 'POST', '/api/dev/billing-clock/advance', { by }), 'advance');
    },
    close: async () => {
      await api.close();
      await stripe?.close();
    },
    customer(name) {
      const customer: Customer = {
        name,
        userId: '',
        sessionToken: '',
        signIn: async () => {
          const body = ok(await call(app, 'POST', '/api/auth/google/signin', { idToken: name }), 'sign-in');
          customer.userId = (body.user as { id: string }).id;
          customer.sessionToken = body.sessionToken as string;
        },
        subscribe: async () => {
          if (!customer.sessionToken) await customer.signIn();
          if (stripe) {
            // As Stripe tells it: the checkout completed, the subscription made, its first invoice paid.
            const [customerId, subscriptionId] = [`cus_${name}`, `sub_${name}`];
            await stripeEvent('checkout.session.completed', { id: `cs_${name}`, client_reference_id: customer.userId, customer: customerId });
            const subscription = structuredClone(stripe.addSubscription(subscriptionId, customerId, customer.userId));
            await stripeEvent('customer.subscription.created', subscription);
            await stripeEvent('invoice.paid', {
              id: `in_${subscriptionId}`,
              object: 'invoice',
              customer: customerId,
              amount_paid: 10000,
              currency: 'usd',
              status_transitions: { paid_at: Math.floor(Date.now() / 1000) - 60 },
              parent: { subscription_details: { subscription: subscriptionId, metadata: { userId: customer.userId } } },
            });
            return;
          }
          const checkout = ok(await call(app, 'POST', '/api/subscription/create-checkout', { idToken: name, email: `${name}@example.com` }), 'checkout');
          const paid = await app.inject({ method: 'POST', url: `${new URL(checkout.url as string).pathname}/pay` });
          if (paid.headers.location !== '/success') throw new Error(`payment: ${paid.statusCode} ${paid.body}`);
        },
        addDevice: async (publicKey) => {
          // A web session proves a sign-in within 10 minutes with an ID token (issue 46, item 9).
          const body = ok(await call(app, 'POST', '/api/vpn/devices', { sessionToken: customer.sessionToken, name: 'Laptop', publicKey, idToken: name }), 'add device');
          return body.device as { id: string; publicKey: string; ipv4Address: string; ipv6Address: string };
        },
        revoke: async (deviceId) => {
          ok(await call(app, 'POST', '/api/auth/devices/revoke', { sessionToken: customer.sessionToken, deviceId }), 'revoke');
        },
        refund: async () => {
          ok(await call(app, 'POST', '/api/subscription/refund', { idToken: name }), 'refund');
        },
        cancelRenewal: async () => {
          ok(await call(app, 'POST', '/api/subscription/cancel', { idToken: name }), 'cancel');
        },
        deleteAccount: async () => {
          ok(await call(app, 'DELETE', '/api/auth/delete-account', { sessionToken: customer.sessionToken, userId: customer.userId, email: `${name}@example.com` }), 'delete');
        },
        loseDispute: async () => {
          if (!stripe) throw new Error('a dispute needs payments: stripe');
          stripe.chargeCustomers.set(`ch_${name}`, `cus_${name}`);
          const dispute = { id: `dp_${name}`, object: 'dispute', charge: `ch_${name}`, payment_intent: `pi_sub_${name}`, status: 'needs_response', amount: 10000, currency: 'usd' };
          await stripeEvent('charge.dispute.created', dispute);
          await stripeEvent('charge.dispute.closed', { ...dispute, status: 'lost' });
        },
        disableByStaff: async () => {
          ok(await call(app, 'POST', '/api/staff/actions', { idToken: STAFF_TOKEN, userId: customer.userId, action: 'disable', reason: 'Relay proof: staff disable' }), 'staff disable');
        },
      };
      return customer;
    },
  };
}
