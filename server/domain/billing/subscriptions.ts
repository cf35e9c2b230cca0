/**
 * Subscription state as the payment provider reports it (design §7: webhooks are the only source, never
 * the browser reaching /success). One row per provider subscription; an account has at most one live
 * (active or past_due) subscription: a second one that gets paid anyway is cancelled, never kept.
 */
import { and, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import type { Subscription } from '../../../contract/api.ts';
import { PAST_DUE_DAYS } from '../../../contract/limits.ts';
import type { Db } from '../../db/database.ts';
import { subscriptions } from '../../db/schema.ts';
import type { PaymentProvider, SubscriptionSnapshot } from './payment-provider.ts';
import { accountOfIdentity, type VerifiedIdentity } from '../accounts/accounts.ts';
import { recordActivity } from '../privacy/account-activity.ts';
import { oweCustomerMessage } from '../customer-messages.ts';
import { failures } from '../errors.ts';
import type { JobSender } from '../jobs.ts';
import { oweRefund, refundFacts, type RefundFacts } from './refunds.ts';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
/**
 * What an answer's `subscription` is made of (toApiSubscription): the row, and what the refunds say of it
 * (refundFacts: when its payment was refunded, whether the account has had its money-back refund).
 */
export type ShownSubscriptionRow = Pick<SubscriptionRow, 'status' | 'plan' | 'cancelAtPeriodEnd' | 'currentPeriodEnd' | 'unpaid'> &
  Partial<Pick<SubscriptionRow, 'providerUpdatedAt'>> &
  Partial<RefundFacts>;
type Status = 'active' | 'inactive' | 'past_due' | 'cancelled';

/** The statuses that count as the account's subscription: one at most per account. */
const LIVE_STATUSES = ['active', 'past_due'] as const;
const isLive = (status: string) => (LIVE_STATUSES as readonly string[]).includes(status);

/** Provider status -> ours: active, inactive, past_due, cancelled. */
function mapProviderStatus(status: string): Status {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
    // Shown as past due (the customer can still pay), but without access: the row's `unpaid` (accessUntil, peer-access.ts).
    case 'unpaid':
      return 'past_due';
    case 'canceled':
    case 'cancelled':
      return 'cancelled';
    default:
      return 'inactive';
  }
}

/** How long past its end date an active subscription is still reported active when no event came. */
const GRACE_PERIOD_MS = 3 * 86_400_000;

/**
 * The billing rules' `now` below (the grace period, what is live) is the billing clock's: real time with
 * Stripe, the local checkout's clock otherwise (issue 34: one clock for every billing rule, as a Stripe test
 * clock is). Callers pass it from the route or worker (AppDeps.billingNow); there is no default.
 */

/** An `active` row whose period ended before this is reported lapsed at `now` (statusAt). */
export function reportedLapsedBefore(now: Date): Date {
  return new Date(now.getTime() - GRACE_PERIOD_MS);
}

/**
 * The status to report for a stored row at `now`, whatever the provider (issue 11, item 10): an `active`
 * subscription more than the grace period past its end date, with no renewal or end reported, is not
 * active any more: `cancelled` if its renewal was off (it ended), otherwise `inactive` (the renewal never
 * arrived). Other statuses are kept (`past_due` is, by nature, past its end date). Pure: apply it to any
 * row read for an answer.
 */
function statusAt(row: Pick<SubscriptionRow, 'status' | 'cancelAtPeriodEnd' | 'currentPeriodEnd'>, now: Date): string {
  if (row.status !== 'active' || !row.currentPeriodEnd) return row.status;
  if (now.getTime() - row.currentPeriodEnd.getTime() <= GRACE_PERIOD_MS) return row.status;
  return row.cancelAtPeriodEnd ? 'cancelled' : 'inactive';
}

/** How long a subscription with no known period end is taken to last, for the relays' expiry only. */
const UNKNOWN_END_MS = 366 * 86_400_000;

/**
 * When a live subscription's access ends if nothing else happens, by the billing clock (issue 47): an
 * `active` one at its period end plus the grace period (statusAt); a `past_due` one when its retries must be
 * over (PAST_DUE_DAYS after the period end, contract/limits.ts) plus the same grace for the ending event.
 */
export function accessEndOf(row: Pick<SubscriptionRow, 'status' | 'currentPeriodEnd'>, now: Date): Date {
  if (!row.currentPeriodEnd) return new Date(now.getTime() + UNKNOWN_END_MS);
  const extra = row.status === 'past_due' ? PAST_DUE_DAYS * 86_400_000 : 0;
  return new Date(row.currentPeriodEnd.getTime() + extra + GRACE_PERIOD_MS);
}

/** A row as an answer's `subscription`, with the grace rule applied (statusAt). */
export function toApiSubscription(row: ShownSubscriptionRow | undefined | null, now: Date): Subscription | null {
  if (!row) return null;
  const status = statusAt(row, now);
  return {
    status,
    ...(row.plan ? { plan: row.plan } : {}),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    ...(row.currentPeriodEnd ? { endDate: row.currentPeriodEnd.toISOString() } : {}),
    // Shown as past due, but without access (Stripe's `unpaid`): the account page must tell the two apart.
    ...(row.unpaid && row.status === 'past_due' ? { unpaid: true } : {}),
    ...(row.refundedAt ? { refundedAt: row.refundedAt.toISOString() } : {}),
    ...(row.moneyBackUsed ? { moneyBackUsed: true } : {}),
    // A cancelled row marked unpaid ended from past due, its renewal never paid (applySubscriptionState).
    // Its provider's time of that change (seconds) is when it ended, by the billing clock for the local checkout.
    ...(status === 'cancelled' && row.unpaid && row.providerUpdatedAt ? { endedUnpaidAt: new Date(row.providerUpdatedAt * 1000).toISOString() } : {}),
  };
}

/** The subscription an account is shown (findSubscription), with its refund facts, as an answer gives it. */
export async function shownSubscription(db: Db, userId: string, now: Date): Promise<Subscription | null> {
  const row = await findSubscription(db, userId);
  return toApiSubscription(row && { ...row, ...(await refundFacts(db, userId, row.providerSubscriptionId)) }, now);
}

/**
 * The order that puts the subscription an account is shown first: its live one, then the one changed
 * last. SQL text, so that verify's statement written without the ORM (session-check.ts) and the queries
 * here share one rule; `table` names the subscriptions table or its alias.
 */
export function shownSubscriptionFirstSql(table: string): string {
  return `case when ${table}.status in (${LIVE_STATUSES.map((status) => `'${status}'`).join(', ')}) then 0 else 1 end, ${table}.updated_at desc`;
}

/** The subscription an account is shown: its live one, otherwise the one changed last. */
export async function findSubscription(db: Db, userId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(sql.raw(shownSubscriptionFirstSql('subscriptions')))
    .limit(1);
  return row;
}

/** The account's live subscriptions, as reported (statusAt): one lapsed past the grace period is not. */
export async function findLiveSubscriptions(db: Db, userId: string, now: Date): Promise<SubscriptionRow[]> {
  const rows = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, [...LIVE_STATUSES])));
  return rows.filter((row) => isLive(statusAt(row, now)));
}

/** Every subscription of the account that is not cancelled (live, or still incomplete at the provider). */
export async function findUnendedSubscriptions(db: Db, userId: string): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), ne(subscriptions.status, 'cancelled')));
}

export interface ProviderSubscriptionState {
  userId: string;
  provider: 'stripe' | 'local';
  providerSubscriptionId: string;
  providerStatus: string;
  plan: string | null;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
  /** The provider's time of this state (event `created`, seconds). */
  providerTime: number;
}

/** What applying a state needs beyond the database: the job queue, and (Stripe) the provider's own answer. */
export interface ProviderEffects {
  /**
   * Work a state change owes, enqueued in the event's transaction: at the provider (a refund, refunds.ts)
   * and to the customer (e-mails, customer-messages.ts).
   */
  jobs: JobSender;
  /** The subscription as the provider holds it now, to settle two states of the same second. */
  fetchSubscription?: (subscriptionId: string) => Promise<SubscriptionSnapshot | null>;
  /** The customer a charge belongs to (Stripe), for events that name only the charge (a dispute). */
  fetchChargeCustomer?: (chargeId: string) => Promise<string | null>;
  /**
   * The billing rules' time (the grace period): the local checkout's billing clock, or real time with
   * Stripe. Read before the event's transaction (the clock is a row of the same database).
   */
  billingNow: () => Promise<Date>;
  /** The payment intent that paid an invoice (Stripe), for an invoice.paid that does not include it. */
  fetchInvoicePayment?: (invoiceId: string) => Promise<string | null>;
}

export type StateOutcome = 'applied' | 'ignored' | 'second_subscription_cancelled';

type ComparableState = Pick<SubscriptionRow, 'status' | 'cancelAtPeriodEnd' | 'currentPeriodEnd'>;

/** How far a state is along the way to its end, for two states of one second with nobody to ask. */
const FINALITY: Record<string, number> = { inactive: 0, active: 1, past_due: 2, cancelled: 3 };
const finality = (state: ComparableState) => (FINALITY[state.status] ?? 0) * 2 + (state.cancelAtPeriodEnd ? 1 : 0);
const sameState = (a: ComparableState, b: ComparableState) =>
  a.status === b.status && a.cancelAtPeriodEnd === b.cancelAtPeriodEnd && a.currentPeriodEnd?.getTime() === b.currentPeriodEnd?.getTime();

/**
 * Whether an incoming state of a stored subscription replaces it (issue 10, section 4). A cancelled
 * subscription is final: nothing revives it (Stripe never reactivates one). Otherwise the provider's time
 * decides; within the same second, never the arrival order: a cancellation wins, an equal state changes
 * nothing, and anything else is settled by asking the provider ('ask'), or, with nobody to ask, by
 * finality (past due over active, renewal off over on).
 */
function decideStateChange(
  current: ComparableState & { providerUpdatedAt: number },
  incoming: ComparableState & { providerTime: number },
): 'apply' | 'ignore' | 'ask' {
  if (current.status === 'cancelled') return 'ignore';
  if (incoming.providerTime !== current.providerUpdatedAt) return incoming.providerTime > current.providerUpdatedAt ? 'apply' : 'ignore';
  if (incoming.status === 'cancelled') return 'apply';
  if (sameState(current, incoming)) return 'ignore';
  return 'ask';
}

/**
 * Holds, until the surrounding transaction ends, the lock of one provider subscription: two events for it
 * (different ids, so the ledger lets both through) delivered at once to two instances are applied one
 * after the other, each reading what the other committed, never both deciding on the same old row (or
 * on no row) with the last commit winning. The two-key form keeps it apart from the migrations' lock.
 */
export async function lockSubscription(db: Db, providerSubscriptionId: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('veil-subscription'), hashtext(${providerSubscriptionId}))`);
}

/**
 * Applies a provider state unless it is stale or final already (see decideStateChange). Runs inside the
 * event's ledger transaction (payment-events.ts), which the subscription's lock serialises.
 */
export async function applySubscriptionState(
  db: Db,
  incoming: ProviderSubscriptionState,
  effects: ProviderEffects,
  /** The billing clock's time: a live subscription lapsed by it gives way to this one. */
  billingNow: Date,
): Promise<StateOutcome> {
  let state = incoming;
  let status = mapProviderStatus(state.providerStatus);
  await lockSubscription(db, state.providerSubscriptionId);
  const [current] = await db.select().from(subscriptions).where(eq(subscriptions.providerSubscriptionId, state.providerSubscriptionId));
  if (current) {
    const candidate = { status, cancelAtPeriodEnd: state.cancelAtPeriodEnd, currentPeriodEnd: state.currentPeriodEnd };
    const decision = decideStateChange(current, { ...candidate, providerTime: state.providerTime });
    if (decision === 'ignore') return 'ignored';
    if (decision === 'ask') {
      const fetched = effects.fetchSubscription ? await effects.fetchSubscription(state.providerSubscriptionId) : null;
      if (fetched) {
        state = { ...state, providerStatus: fetched.providerStatus, cancelAtPeriodEnd: fetched.cancelAtPeriodEnd, currentPeriodEnd: fetched.currentPeriodEnd };
        status = mapProviderStatus(state.providerStatus);
      } else if (finality(candidate) <= finality(current)) {
        return 'ignored';
      }
    }
  }

  let outcome: StateOutcome = 'applied';
  let stored: Status = status;
  if (isLive(status) && !(current && isLive(current.status)) && (await hasOtherLiveSubscription(db, state, billingNow))) {
    // Paid while the account already had a live subscription (two checkouts opened before paying):
    // the first one stays, this one is ended and refunded by a job, owed in this very transaction.
    await oweRefund(db, effects.jobs, {
      providerSubscriptionId: state.providerSubscriptionId,
      userId: state.userId,
      provider: state.provider,
      reason: 'second_subscription',
    });
    outcome = 'second_subscription_cancelled';
    stored = 'cancelled';
  }

  // Ends now, from past due (the provider's retries are over): the plan ended unpaid, and the customer is told.
  const endedUnpaid = stored === 'cancelled' && current !== undefined && (current.status === 'past_due' || (current.status === 'cancelled' && current.unpaid));
  const values = {
    providerSubscriptionId: state.providerSubscriptionId,
    userId: state.userId,
    provider: state.provider,
    status: stored,
    plan: state.plan,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    currentPeriodEnd: state.currentPeriodEnd,
    // Stripe's `unpaid`; and a past-due subscription that ends keeps the mark: it ended unpaid (issue 45, T15).
    unpaid: state.providerStatus === 'unpaid' || endedUnpaid,
    providerUpdatedAt: state.providerTime,
    updatedAt: new Date(),
  };
  await db.insert(subscriptions).values(values).onConflictDoUpdate({ target: subscriptions.providerSubscriptionId, set: values });
  if (effects.jobs && current && !current.cancelAtPeriodEnd && values.cancelAtPeriodEnd && isLive(stored) && values.currentPeriodEnd) {
    // Turned off at the provider (Stripe's portal, or our own cancel call's event): keyed as turnOffRenewal keys it.
    await oweRenewalOff(db, effects.jobs, values.userId, values.providerSubscriptionId, values.currentPeriodEnd);
  }
  if (effects.jobs && endedUnpaid && current?.status === 'past_due') {
    const endedAt = new Date(state.providerTime * 1000).toISOString();
    const failedOn = (current.currentPeriodEnd ?? new Date(state.providerTime * 1000)).toISOString();
    await oweCustomerMessage(db, effects.jobs, { kind: 'plan_ended_unpaid', userId: values.userId, failedOn, endedAt }, values.providerSubscriptionId);
  }
  if (effects.jobs && current?.cancelAtPeriodEnd && !values.cancelAtPeriodEnd && isLive(stored) && values.currentPeriodEnd) {
    // Turned back on at the provider (a resume in Stripe's Billing Portal): keyed as turnOnRenewal keys it.
    const renewalDate = values.currentPeriodEnd.toISOString();
    await oweCustomerMessage(db, effects.jobs, { kind: 'renewal_on', userId: values.userId, renewalDate }, `${values.providerSubscriptionId}:${renewalDate}`);
  }
  return outcome;
}

async function hasOtherLiveSubscription(db: Db, state: ProviderSubscriptionState, now: Date): Promise<boolean> {
  const others = await db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, state.userId),
        ne(subscriptions.providerSubscriptionId, state.providerSubscriptionId),
        inArray(subscriptions.status, [...LIVE_STATUSES]),
      ),
    );
  const lapsed = others.filter((row) => !isLive(statusAt(row, now)));
  // A subscription already reported as lapsed gives way to the new one: stored as reported, so the
  // one-live index allows the new row (should it come back to life, it is the second one then).
  for (const row of lapsed) {
    await db
      .update(subscriptions)
      .set({ status: statusAt(row, now), updatedAt: now })
      .where(eq(subscriptions.providerSubscriptionId, row.providerSubscriptionId));
  }
  return others.length > lapsed.length;
}

/**
 * The "auto-renewal is off" e-mail, once per subscription and period whichever path notices first (our
 * cancel call, or the provider's own portal), and the account's activity entry with it.
 */
async function oweRenewalOff(db: Db, jobs: JobSender, userId: string, subscriptionId: string, endDate: Date, by: 'customer' | 'support' = 'customer') {
  const owed = await oweCustomerMessage(db, jobs, { userId, kind: 'renewal_off', endDate: endDate.toISOString() }, `${subscriptionId}:${endDate.toISOString()}`);
  if (owed) await recordActivity(db, { userId, kind: 'auto_renewal_off', by });
}

/** A subscription whose renewal the provider turned off, with its answer (support's disable). */
export interface RenewalTurnedOff {
  subscription: SubscriptionRow;
  answer: SubscriptionSnapshot;
}

/**
 * Support disables the account (issue 46, item 10): auto-renewal off at the provider for each of its live
 * subscriptions still renewing, so nobody is charged for a service they can neither use nor cancel. Asked
 * before the disable's transaction (the provider call stays outside it, as the customer's own does); a
 * refusal fails the disable before anything changed.
 */
export async function turnOffRenewalAtProvider(db: Db, payments: PaymentProvider, userId: string, billingNow: Date): Promise<RenewalTurnedOff[]> {
  const turnedOff: RenewalTurnedOff[] = [];
  for (const subscription of (await findLiveSubscriptions(db, userId, billingNow)).filter((row) => !row.cancelAtPeriodEnd)) {
    try {
      turnedOff.push({ subscription, answer: await payments.cancelAtPeriodEnd(subscription.providerSubscriptionId) });
    } catch (error) {
      throw failures.providerFailed('Auto-renewal could not be turned off, so the account was not disabled. Please try again.', error);
    }
  }
  return turnedOff;
}

/** Stores, in the disable's transaction, what turnOffRenewalAtProvider got: the "renewal off" e-mail and activity entry as for the customer's own. */
export async function recordRenewalTurnedOff(tx: Db, jobs: JobSender, userId: string, turnedOff: RenewalTurnedOff[]): Promise<void> {
  for (const { subscription, answer } of turnedOff) {
    await recordProviderAnswer(tx, subscription, answer);
    const endDate = answer.currentPeriodEnd ?? subscription.currentPeriodEnd;
    if (answer.cancelAtPeriodEnd && endDate) await oweRenewalOff(tx, jobs, userId, subscription.providerSubscriptionId, endDate, 'support');
  }
}

/**
 * Stores the state the provider answered a call with (auto-renewal off or back on), at once: the account page shows
 * it without waiting for the webhook, which then confirms it. A cancelled subscription stays cancelled.
 */
async function recordProviderAnswer(db: Db, row: SubscriptionRow, answer: SubscriptionSnapshot, now = new Date()): Promise<void> {
  const status = mapProviderStatus(answer.providerStatus);
  await db
    .update(subscriptions)
    .set({
      status,
      unpaid: answer.providerStatus === 'unpaid',
      cancelAtPeriodEnd: answer.cancelAtPeriodEnd,
      currentPeriodEnd: answer.currentPeriodEnd ?? row.currentPeriodEnd,
      // The provider's time of the state stays the last event's: an answer carries no time of its own,
      // and stamping the server's clock would make a provider event dated a moment earlier look stale.
      updatedAt: now,
    })
    .where(and(eq(subscriptions.providerSubscriptionId, row.providerSubscriptionId), ne(subscriptions.status, 'cancelled')));
}

/**
 * One subscription's renewal turned off or back on (turnOffRenewal, turnOnRenewal): `ask` the provider,
 * its failure reported as a provider failure saying `failure`; then, in one transaction, its answer stored
 * and what the change owes (`owe`: the e-mail) enqueued, so that neither happens without the other.
 * `now` is the time stored (left out: the moment of storing).
 */
async function changeRenewal(
  db: Db,
  subscription: SubscriptionRow,
  ask: (providerSubscriptionId: string) => Promise<SubscriptionSnapshot>,
  failure: string,
  owe: (tx: Db, answer: SubscriptionSnapshot) => Promise<void>,
  now?: Date,
): Promise<void> {
  let answer: SubscriptionSnapshot;
  try {
    answer = await ask(subscription.providerSubscriptionId);
  } catch (error) {
    throw failures.providerFailed(failure, error);
  }
  await db.transaction(async (tx) => {
    await recordProviderAnswer(tx, subscription, answer, now);
    await owe(tx, answer);
  });
}

/**
 * Auto-renewal off for every live subscription of the account of a verified identity (there should be
 * one; a stray second one is not spared). Stored at once, as the provider answered: the page shows
 * renewal off now; the webhook confirms it. Answers the subscription the account is shown.
 */
export async function turnOffRenewal(
  db: Db,
  payments: PaymentProvider,
  jobs: JobSender,
  identity: Pick<VerifiedIdentity, 'subject'>,
  billingNow: Date,
): Promise<Subscription | null> {
  const { id: userId } = await accountOfIdentity(db, identity);
  const live = await findLiveSubscriptions(db, userId, billingNow);
  if (live.length === 0) throw failures.noSubscription();
  for (const subscription of live.filter((row) => !row.cancelAtPeriodEnd)) {
    await changeRenewal(db, subscription, (id) => payments.cancelAtPeriodEnd(id), 'Failed to cancel subscription', async (tx, answer) => {
      // Keyed by subscription and period: turning it off twice in one period mails once.
      const endDate = answer.currentPeriodEnd ?? subscription.currentPeriodEnd;
      if (answer.cancelAtPeriodEnd && endDate) {
        await oweRenewalOff(tx, jobs, userId, subscription.providerSubscriptionId, endDate);
      }
    });
  }
  return shownSubscription(db, userId, billingNow);
}

/**
 * Auto-renewal back on (issue 20, item 3; design §8 overrides the spec's "contact support") for the
 * account's live subscription whose renewal is off and whose paid period has not ended. Stored at once
 * as the provider answered, with the "renewal on" e-mail owed in the same transaction.
 */
export async function turnOnRenewal(
  db: Db,
  payments: PaymentProvider,
  jobs: JobSender,
  identity: Pick<VerifiedIdentity, 'subject'>,
  now: Date,
): Promise<Subscription | null> {
  const { id: userId } = await accountOfIdentity(db, identity);
  const running = (await findLiveSubscriptions(db, userId, now)).filter((row) => !row.currentPeriodEnd || row.currentPeriodEnd > now);
  if (running.length === 0) throw failures.noSubscription();
  for (const subscription of running.filter((row) => row.cancelAtPeriodEnd)) {
    await changeRenewal(db, subscription, (id) => payments.resumeRenewal(id), 'Failed to turn auto-renewal back on', async (tx, answer) => {
      const renewalDate = (answer.currentPeriodEnd ?? subscription.currentPeriodEnd)?.toISOString();
      if (renewalDate) {
        await oweCustomerMessage(tx, jobs, { kind: 'renewal_on', userId, renewalDate }, `${subscription.providerSubscriptionId}:${renewalDate}`);
      }
      await recordActivity(tx, { userId, kind: 'auto_renewal_on', by: 'customer' }, now);
    }, now);
  }
  return shownSubscription(db, userId, now);
}

export async function findSubscriptionByProviderId(db: Db, providerSubscriptionId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId));
  return row;
}

/** Live subscriptions of the local checkout whose period has ended by `now` (its billing clock renews or ends them). */
export async function findDueLocalSubscriptions(db: Db, now: Date): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.provider, 'local'),
        inArray(subscriptions.status, [...LIVE_STATUSES]),
        lte(subscriptions.currentPeriodEnd, now),
      ),
    );
}
