/**
 * The local provider's billing clock (issue 11, item 10): moved forward like a Stripe test clock, it renews
 * or ends subscriptions at their period end through the signed event path; the dev call exists only with
 * the local checkout outside production; and, whatever the provider, an active subscription more than the
 * grace period past its end date with no event is no longer reported active.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { paymentEvents, subscriptions } from '../../server/db/schema';
import { mailsOwed } from '../support/mail-owed';
import { call, createTestApi, migratedDataDir, nameVerifier as verifier, type TestApi } from '../support/server-harness';
import { describeStripeApi } from '../support/stripe-api';
import { listedKeys, newPublicKey, registerKey, RELAY_TOKEN } from '../support/wireguard';
import { onThisMachine } from '../support/machine-slowness';

const DAY = 86_400_000;

interface ApiSubscription {
  status: string;
  cancelAtPeriodEnd: boolean;
  endDate?: string;
}

async function signIn(api: TestApi, name: string) {
  const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
  return { userId: (body.user as { id: string }).id, sessionToken: body.sessionToken as string };
}

async function buy(api: TestApi, name: string) {
  const user = await signIn(api, name);
  const checkout = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: name, email: `${name}@example.com` });
  const paid = await api.app.inject({ method: 'POST', url: `${new URL(checkout.body.url as string).pathname}/pay` });
  expect(paid.headers.location).toBe('/success');
  return user;
}

const subscriptionOf = async (api: TestApi, sessionToken: string) =>
  (await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).body.subscription as ApiSubscription;
const advance = (api: TestApi, by: unknown) => call(api.app, 'POST', '/api/dev/billing-clock/advance', { by });
const yearAfter = (iso: string) => {
  const date = new Date(iso);
  date.setUTCFullYear(date.getUTCFullYear() + 1);
  return date.toISOString();
};

describeApi('billing clock', { layer: 'sql', verifier }, (api) => {
  test('at the period end a subscription with renewal on renews: a new period, renewal still on', async () => {
    const { sessionToken } = await buy(api, 'renewer');
    const bought = await subscriptionOf(api, sessionToken);

    expect(await advance(api, '300d')).toMatchObject({ status: 200, body: { success: true, renewed: 0, ended: 0 } });
    expect(await subscriptionOf(api, sessionToken)).toEqual(bought);

    const moved = await advance(api, '66d');
    expect(moved).toMatchObject({ status: 200, body: { renewed: 1, ended: 0 } });
    expect(new Date(moved.body.now as string).getTime() - Date.now()).toBeGreaterThan(365 * DAY);
    expect(await subscriptionOf(api, sessionToken)).toEqual({ status: 'active', cancelAtPeriodEnd: false, endDate: yearAfter(bought.endDate!) });
    // Through the signed event path, recorded in the ledger like any delivery.
    const ledger = await api.database.db.select().from(paymentEvents);
    // Each payment is an invoice.paid (issue 20: the billing history and the receipts read them).
    expect(ledger.map((event) => event.type).sort()).toEqual(
      ['checkout.session.completed', 'customer.subscription.created', 'invoice.paid', 'customer.subscription.updated', 'invoice.paid'].sort(),
    );
  });

  test('at the period end a subscription with renewal off ends (cancelled), and a new one can be bought', async () => {
    const { sessionToken } = await buy(api, 'leaver');
    expect((await call(api.app, 'POST', '/api/subscription/cancel', { idToken: 'leaver' })).status).toBe(200);
    expect(await advance(api, '366d')).toMatchObject({ status: 200, body: { renewed: 0, ended: 1 } });
    expect(await subscriptionOf(api, sessionToken)).toMatchObject({ status: 'cancelled', cancelAtPeriodEnd: true });
    expect((await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: 'leaver', email: 'x@example.com' })).status).toBe(200);
  });

  test('after a renewal the clock keeps time: renewal off then ends it at the new period end', async () => {
    const { sessionToken } = await buy(api, 'second-year');
    await advance(api, '366d');
    const renewed = await subscriptionOf(api, sessionToken);
    expect(await call(api.app, 'POST', '/api/subscription/cancel', { idToken: 'second-year' })).toMatchObject({
      status: 200,
      body: { subscription: { status: 'active', cancelAtPeriodEnd: true, endDate: renewed.endDate } },
    });
    expect(await advance(api, '300d')).toMatchObject({ body: { renewed: 0, ended: 0 } });
    expect(await advance(api, '100d')).toMatchObject({ body: { renewed: 0, ended: 1 } });
    expect(await subscriptionOf(api, sessionToken)).toMatchObject({ status: 'cancelled' });
  });

  test('the money-back window reads the billing clock: 31 days on, the refund is 409 refund_window_closed and no longer offered', async () => {
    const { sessionToken } = await buy(api, 'late-claimer');
    expect((await call(api.app, 'POST', '/api/billing/history', { sessionToken })).body.refundableUntil).toBeDefined();
    await advance(api, '31d');
    expect((await call(api.app, 'POST', '/api/billing/history', { sessionToken })).body.refundableUntil).toBeUndefined();
    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'late-claimer' })).toMatchObject({
      status: 409,
      body: { success: false, code: 'refund_window_closed' },
    });
  });

  test('the renewal reminders read the billing clock: 340 days on, the 30-day reminder of a plan bought today is owed', async () => {
    const { userId, sessionToken } = await buy(api, 'reminded');
    const { endDate } = await subscriptionOf(api, sessionToken);
    expect(await mailsOwed(api.database, 'renewal_reminder', userId)).toEqual([]);
    await advance(api, '340d');
    expect(await mailsOwed(api.database, 'renewal_reminder', userId)).toEqual([expect.objectContaining({ daysBefore: 30, renewalDate: endDate })]);
  });

  test('the past-due grace reads the billing clock: a declined renewal is past due, and once past the grace it has ended', async () => {
    const { sessionToken } = await buy(api, 'never-paid');
    expect(await call(api.app, 'POST', '/api/dev/billing-clock/advance', { by: '366d', decline: true })).toMatchObject({ body: { declined: 1 } });
    expect(await subscriptionOf(api, sessionToken)).toMatchObject({ status: 'past_due' });
    expect(await advance(api, '20d')).toMatchObject({ body: { ended: 0 } });
    expect(await subscriptionOf(api, sessionToken)).toMatchObject({ status: 'past_due' });
    expect(await advance(api, '15d')).toMatchObject({ body: { ended: 1 } });
    expect(await subscriptionOf(api, sessionToken)).toMatchObject({ status: 'cancelled' });
  });

  test('a bad duration is a 400 JSON; the clock never moves back', async () => {
    for (const by of ['soon', '-5d', 12, '']) {
      expect(await advance(api, by)).toEqual({
        status: 400,
        body: { success: false, error: 'Invalid request: by must be a duration such as 366d, 12h, 30m, 45s or seconds.', code: 'validation_failed' },
        headers: expect.anything(),
      });
    }
  });
});

describeApi('grace period by the billing clock', { layer: 'sql', verifier, env: { RELAY_TOKENS: `test-relay:${RELAY_TOKEN}` } }, (api) => {
  test('3 days past its end by the billing clock, an active subscription with no event is lapsed: in verify, sign-in, checkout and the peer list', async () => {
    const { userId, sessionToken } = await signIn(api, 'grace-clock');
    // A subscription the local billing clock does not renew or end (one of Stripe's, left in a developer's
    // database): nothing but the grace period ends it here.
    const end = new Date(Math.floor((Date.now() + 10 * DAY) / 1000) * 1000);
    await api.database.db.insert(subscriptions).values({
      providerSubscriptionId: 'sub_no_events',
      userId,
      provider: 'stripe',
      status: 'active',
      plan: 'yearly',
      currentPeriodEnd: end,
      providerUpdatedAt: Math.floor(Date.now() / 1000),
    });
    const key = newPublicKey();
    expect((await registerKey(api.app, sessionToken, key, 'Laptop', 'grace-clock')).status).toBe(200);
    const state = async () => ({
      verify: (await subscriptionOf(api, sessionToken)).status,
      signIn: ((await call(api.app, 'POST', '/api/auth/google/signin', { idToken: 'grace-clock' })).body.subscription as ApiSubscription).status,
      checkout: (await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: 'grace-clock', email: 'grace-clock@example.com' })).status,
      listed: (await listedKeys(api.app)).includes(key),
    });
    const live = { verify: 'active', signIn: 'active', checkout: 409, listed: true };
    expect(await state()).toEqual(live);

    // 2 days past its end by the billing clock (real time is 10 days before it): still within the grace.
    expect(await advance(api, '12d')).toMatchObject({ status: 200, body: { renewed: 0, ended: 0 } });
    expect(await state()).toEqual(live);

    // 4 days past: lapsed everywhere the account's access is read.
    await advance(api, '2d');
    expect(await state()).toEqual({ verify: 'inactive', signIn: 'inactive', checkout: 200, listed: false });
  });
});

// Stripe here: the rule holds whatever the provider.
describeStripeApi('grace period', 'sql', {}, ({ api, stripe, stripeEvent }) => {
  async function deliver(userId: string, subscriptionId: string, status: string, periodEnd: Date, cancelAtPeriodEnd = false) {
    const { body } = await stripeEvent('customer.subscription.updated', {
      id: subscriptionId,
      status,
      cancel_at_period_end: cancelAtPeriodEnd,
      current_period_end: Math.floor(periodEnd.getTime() / 1000),
      metadata: { userId },
    });
    return body as { outcome: string };
  }

  test.each([
    ['active, renewal on, 2 days past its end', 'active', 'active', 2, false],
    ['active, renewal on, 4 days past its end', 'inactive', 'active', 4, false],
    ['active, renewal off, 4 days past its end', 'cancelled', 'active', 4, true],
    ['past due, 20 days past its end', 'past_due', 'past_due', 20, false],
  ])('%s with no event since: reported %s', async (_label, shown, status, daysPast, cancelAtPeriodEnd) => {
    const { userId, sessionToken } = await signIn(api, `grace-${status}-${daysPast}-${cancelAtPeriodEnd}`);
    await deliver(userId, `sub_grace_${userId}`, status, new Date(Date.now() - daysPast * DAY), cancelAtPeriodEnd);
    expect(await subscriptionOf(api, sessionToken)).toMatchObject({ status: shown });
  });

  test('a lapsed subscription does not block buying again, and the new one is kept, not refunded', async () => {
    const { userId, sessionToken } = await signIn(api, 'lapsed');
    await deliver(userId, 'sub_lapsed', 'active', new Date(Date.now() - 5 * DAY));
    expect((await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: 'lapsed', email: 'x@example.com' })).status).toBe(200);
    const yearAhead = new Date(Date.now() + 365 * DAY);
    expect(await deliver(userId, 'sub_new', 'active', yearAhead)).toMatchObject({ outcome: 'applied' });
    expect(await subscriptionOf(api, sessionToken)).toEqual({ status: 'active', cancelAtPeriodEnd: false, endDate: new Date(Math.floor(yearAhead.getTime() / 1000) * 1000).toISOString() });
    expect(stripe.requests.filter((request) => request.path === '/v1/refunds')).toHaveLength(0);
  });
});

describe('the dev call exists only with the local checkout outside production', () => {
  test('with Stripe configured it is a 404', async () => {
    const stripe = await createTestApi({
      driver: 'pglite',
      verifier,
      env: { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PRICE_ID: 'price_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_API_BASE: 'http://127.0.0.1:9' },
    });
    try {
      expect((await advance(stripe, '366d')).status).toBe(404);
    } finally {
      await stripe.close();
    }
  });

  test('with NODE_ENV=production (in the configuration the app is given) it is a 404', async () => {
    const production = await createTestApi({ driver: 'pglite', verifier, env: { NODE_ENV: 'production' } });
    try {
      expect((await advance(production, '366d')).status).toBe(404);
    } finally {
      await production.close();
    }
  });
});

test('npm run billing:advance moves the clock of a stopped API\'s database (PGlite data folder)', async () => {
  const dataDir = migratedDataDir('veil-billing-clock-');
  try {
    const first = await createTestApi({ driver: 'pglite', dataDir, verifier });
    const { sessionToken } = await buy(first, 'script-user');
    const bought = await subscriptionOf(first, sessionToken);
    await first.close();

    // The script as `npm run billing:advance` runs it (tsx), in one process: npx and tsx's own CLI would each
    // start one more Node before it (~1 s of CPU each on a busy machine).
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/billing-advance.ts', '366d'], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: '1', STATIC_DIR: '/nonexistent-static-dir', NODE_ENV: 'development', MAIL: 'off' },
    });
    expect(stdout).toMatch(/^billing clock now \d{4}-.*: 1 renewed, 0 ended/);

    const second = await createTestApi({ driver: 'pglite', dataDir, verifier });
    try {
      expect(await subscriptionOf(second, sessionToken)).toMatchObject({ status: 'active', endDate: yearAfter(bought.endDate!) });
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, onThisMachine(120_000));

test('npm run billing:advance -- 366d --decline declines the renewal that falls due (issue 20, item 8)', async () => {
  const dataDir = migratedDataDir('veil-billing-decline-');
  try {
    const first = await createTestApi({ driver: 'pglite', dataDir, verifier });
    const { sessionToken } = await buy(first, 'script-decline');
    const bought = await subscriptionOf(first, sessionToken);
    await first.close();

    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/billing-advance.ts', '366d', '--decline'], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: '1', STATIC_DIR: '/nonexistent-static-dir', NODE_ENV: 'development', MAIL: 'off' },
    });
    expect(stdout).toMatch(/^billing clock now \d{4}-.*: 0 renewed, 0 ended, 1 declined/);

    const second = await createTestApi({ driver: 'pglite', dataDir, verifier });
    try {
      expect(await subscriptionOf(second, sessionToken)).toMatchObject({ status: 'past_due', endDate: bought.endDate });
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, onThisMachine(120_000));
