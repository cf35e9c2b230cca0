/**
 * Issue 49, item 2: the payment provider is asked outside the webhook's transaction. An event whose effect
 * needs a provider answer (a dispute naming only its charge, an invoice without its payment, two states of
 * one second) rolls back, asks the provider with no transaction open, and is applied again with the answer:
 * a slow provider holds no lock and no connection, and a failing one leaves the event unrecorded, so the
 * provider's next delivery applies it.
 */
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { disputes, paymentEvents, users } from '../../server/db/schema';
import type { JobSender } from '../../server/domain/jobs';
import { recordPaymentEvent, type PaymentEventEffect } from '../../server/domain/billing/payment-events';
import type { ProviderEffects } from '../../server/domain/billing/subscriptions';
import { describeDatabase } from '../support/describe-api';

/** A dispute still open owes no job: the queue must not be reached. */
const noJobs = new Proxy({} as JobSender, {
  get: () => () => {
    throw new Error('no job is owed here');
  },
});

describeDatabase('provider calls outside the webhook transaction', (database) => {
  let serial = 0;
  /** An account whose provider customer is `cus_…`, and a dispute event naming only a charge of it. */
  async function disputedCharge() {
    serial += 1;
    const stamp = `${Date.now()}_${serial}`;
    await database.db.insert(users).values({ id: `usr_${stamp}`, identitySubject: `subject-${stamp}`, provider: 'google', email: `d${stamp}@example.com`, name: 'Dee', paymentCustomerId: `cus_${stamp}` });
    const entry = { id: `evt_${stamp}`, type: 'charge.dispute.created', created: Math.floor(Date.now() / 1000) };
    const effect: PaymentEventEffect = { kind: 'dispute', dispute: { id: `dp_${stamp}`, chargeId: `ch_${stamp}`, paymentIntent: null, status: 'needs_response', providerTime: entry.created } };
    const effects = (fetchChargeCustomer: (chargeId: string) => Promise<string | null>): ProviderEffects => ({ jobs: noJobs, billingNow: async () => new Date(), fetchChargeCustomer });
    return { userId: `usr_${stamp}`, customer: `cus_${stamp}`, entry, effect, effects };
  }
  const ledger = async (id: string) => (await database.db.select({ id: paymentEvents.id }).from(paymentEvents).where(eq(paymentEvents.id, id))).map((row) => row.id);

  it('a slow provider holds no transaction: a second delivery of the event is applied while the first still waits for its answer', async () => {
    const { userId, customer, entry, effect, effects } = await disputedCharge();
    let answer!: (customer: string) => void;
    let asked!: () => void;
    const firstAsked = new Promise<void>((resolve) => (asked = resolve));
    const first = recordPaymentEvent(database.db, entry, effect, effects(() => (asked(), new Promise<string>((resolve) => (answer = resolve)))));
    await firstAsked;
    try {
      const second = recordPaymentEvent(database.db, entry, effect, effects(async () => customer));
      const held = new Promise((resolve) => setTimeout(() => resolve('held behind the first delivery'), 5000));
      expect(await Promise.race([second, held])).toBe('applied');
    } finally {
      answer(customer);
    }
    expect(await first).toBe('duplicate');
    expect((await database.db.select().from(disputes).where(eq(disputes.userId, userId))).map((row) => row.status)).toEqual(['needs_response']);
  });

  it('a failing provider loses no event: it is not recorded, and the next delivery applies it', async () => {
    const { userId, customer, entry, effect, effects } = await disputedCharge();
    await expect(recordPaymentEvent(database.db, entry, effect, effects(async () => Promise.reject(new Error('Stripe is down'))))).rejects.toThrow('Stripe is down');
    expect(await ledger(entry.id)).toEqual([]);
    expect(await database.db.select().from(disputes).where(eq(disputes.userId, userId))).toEqual([]);
    expect(await recordPaymentEvent(database.db, entry, effect, effects(async () => customer))).toBe('applied');
    expect(await ledger(entry.id)).toEqual([entry.id]);
    expect((await database.db.select().from(disputes).where(eq(disputes.userId, userId))).map((row) => row.status)).toEqual(['needs_response']);
  });
});
