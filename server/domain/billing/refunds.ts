/**
 * Refunds the product owes (issue 20, items 1 and 4; issue 34: refunds have a life; design §7b). An owed
 * refund is a row written in the transaction that decides it (a webhook's, or the money-back call's),
 * with the job that carries it out at the provider: both commit or neither does. No later event removes
 * the row, so a `customer.subscription.deleted` arriving before the provider answered cannot skip it.
 *
 * Its life (docs/decisions.md, "Refund states"): `owed`, then `made` (the money left: the refund e-mail),
 * `failed` for good with the provider's reason (an alert, and an e-mail saying support will contact the
 * customer), or `not_owed` (the subscription was ended by someone else, or nothing was paid). A refund
 * the provider accepted as pending stays owed until its own events say made or failed.
 */
import { and, eq, inArray, ne, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { providerRefunds, refunds } from '../../db/schema.ts';
import type { PaymentProvider, RefundResult } from './payment-provider.ts';
import { chargeToRefund } from './charges.ts';
import { oweCustomerMessage } from '../customer-messages.ts';
import type { JobSender } from '../jobs.ts';
import { forgetNoticeAddress, handNoticeAddressToMessage, keepNoticeAddress, readNoticeAddress, REFUND_FAILURE_WATCH_MS, type NoticeAddress } from '../privacy/notice-addresses.ts';
import { newId, sha256 } from '../tokens.ts';

/** The queue of provider refunds (declared and worked by server/jobs/billing-jobs.ts). */
export const REFUND_QUEUE = 'provider-refund';

/**
 * What the refund job carries: the refund row's own id, never a provider id (issue 31). The worker reads
 * the provider's ids from the row when it runs; a settled refund of a deleted account keeps them only
 * hashed, and its finished jobs are deleted then (forgetProviderIds).
 */
export interface RefundJob {
  refundId: string;
}

/**
 * The job as it was sent before refunds had an id of their own (0015): it names the provider's
 * subscription. One queued, retrying or failed when that change is deployed is still carried out, its row
 * looked up by the subscription id as before, and deleted once done if its refund is then an accounting
 * record only (its payload holds the subscription id in clear).
 */
export interface OldShapeRefundJob {
  subscriptionId: string;
}

type RefundRow = typeof refunds.$inferSelect;
type RefundReason = RefundRow['reason'];

export interface OwedRefund {
  providerSubscriptionId: string;
  userId: string | null;
  provider: 'stripe' | 'local';
  reason: RefundReason;
  /** The charge the rule refunds (money-back: the first payment); left out: the subscription's latest. */
  chargeId?: string;
  /** Less than the charge when part of it was refunded already (a partial refund in the Dashboard). */
  amount?: number;
}

/** What became of one attempt of the refund job (the job counts failures for the alert). */
type RefundOutcome = 'made' | 'pending' | 'failed' | 'not_owed' | 'nothing_to_do';

export interface RefundAttempt {
  outcome: RefundOutcome;
  /**
   * The refund the job names is now an accounting record only (settled, its account gone) or is not known
   * by what the job names: the job is deleted once done, so no finished job outlives the hashing (issue 31).
   */
  forgetJob: boolean;
}

/**
 * The job's key: one job per refund row, so an event owing the refund again (a webhook delivered twice,
 * two instances) finds the row (one per subscription) and its job, and sends nothing new.
 */
const refundJobKey = (refundId: string) => `refund:${refundId}`;

/**
 * The key the provider's records of this refund carry (Stripe: the cancellation's comment, the refund's
 * metadata; each attempt's idempotency key derives from it): the same for every attempt, so a retry
 * recognises what an earlier one did. It stays the subscription's, as it was before refunds had ids of
 * their own, so a refund whose old-shape job had begun is recognised by the jobs that follow; the provider
 * knows the subscription already, and nothing here stores this key.
 */
const providerRefundKey = (subscriptionId: string) => `refund:${subscriptionId}`;

/**
 * Accounting records without a link back to the person (issue 31): once a refund has no account (its
 * account was deleted) and is settled (made, failed or not owed), the provider's ids on its row (the
 * subscription, payment, charge and refund numbers, each of which leads to the customer at the provider)
 * are replaced by their SHA-256, marked by this prefix. A plain hash suffices: the ids are long random
 * strings, so the hash names a provider record only to someone holding that record already; a late event
 * naming the id is still recognised by hashing it the same way. A refund still owed keeps them in clear
 * until it is settled: the provider must be asked with them.
 */
const FORGOTTEN_ID_PREFIX = 'sha256:';

/** What a settled refund of a deleted account keeps of provider id `id`. */
export const forgottenProviderId = (id: string) => `${FORGOTTEN_ID_PREFIX}${sha256(id)}`;

const isForgottenProviderId = (id: string | null) => id?.startsWith(FORGOTTEN_ID_PREFIX) ?? false;

/** `column`'s value hashed as forgottenProviderId does, in SQL (null and hashed values stay as they are). */
const hashedInSql = (column: AnyColumn): SQL =>
  sql`case when ${column} is null or ${column} like ${`${FORGOTTEN_ID_PREFIX}%`} then ${column} else ${FORGOTTEN_ID_PREFIX} || encode(sha256(convert_to(${column}, 'UTF8')), 'hex') end`;

/**
 * The provider's ids of the settled refunds `which` names that have (or, in the deleting transaction,
 * are about to have) no account are hashed, and their finished jobs are deleted (the job the caller runs
 * in, if any, is deleted by its worker once done: RefundAttempt.forgetJob). Idempotent.
 */
async function forgetProviderIds(tx: Db, jobs: JobSender, which: { userId: string } | { subscriptionId: string }): Promise<void> {
  const rows = and(
    'userId' in which ? eq(refunds.userId, which.userId) : and(eq(refunds.providerSubscriptionId, which.subscriptionId), sql`${refunds.userId} is null`),
    ne(refunds.state, 'owed'),
  );
  const settled = await tx.select({ id: refunds.id, subscriptionId: refunds.providerSubscriptionId }).from(refunds).where(rows);
  if (settled.length === 0) return;
  await tx
    .update(refunds)
    .set({
      providerSubscriptionId: hashedInSql(refunds.providerSubscriptionId),
      paymentIntent: hashedInSql(refunds.paymentIntent),
      chargeId: hashedInSql(refunds.chargeId),
      providerRefundId: hashedInSql(refunds.providerRefundId),
    })
    .where(rows);
  // Its jobs, done or failed for good, with their output (a provider's error may name its ids): by the
  // refund's id, and by the subscription id in clear for a job of the old shape (OldShapeRefundJob).
  await jobs.forgetFinishedJobs(tx, REFUND_QUEUE, 'refundId', settled.map(({ id }) => id));
  const inClear = settled.map(({ subscriptionId }) => subscriptionId).filter((id) => !isForgottenProviderId(id));
  await jobs.forgetFinishedJobs(tx, REFUND_QUEUE, 'subscriptionId', inClear);
}

/**
 * Records `refund` as owed and enqueues its job, inside `tx`; a refund already owed for it stays as it was.
 * Its amount is the refunded charge's when that is known here already, otherwise the provider's once made.
 */
export async function oweRefund(tx: Db, jobs: JobSender, refund: OwedRefund): Promise<void> {
  // Settled after its account was deleted (its ids are kept hashed): a late event never owes it twice.
  const [settled] = await tx
    .select({ state: refunds.state })
    .from(refunds)
    .where(eq(refunds.providerSubscriptionId, forgottenProviderId(refund.providerSubscriptionId)));
  if (settled) return;
  const charge = await chargeToRefund(tx, refund.providerSubscriptionId, refund.chargeId ?? null);
  // One row per subscription (its primary key): owed again, the refund keeps the row, id and job it has.
  await tx
    .insert(refunds)
    .values({ ...refund, id: newId('rfd'), chargeId: refund.chargeId ?? null, amount: refund.amount ?? charge?.amount ?? null, currency: charge?.currency ?? null })
    .onConflictDoNothing({ target: refunds.providerSubscriptionId });
  const [row] = await tx.select({ id: refunds.id }).from(refunds).where(eq(refunds.providerSubscriptionId, refund.providerSubscriptionId));
  await jobs.send(tx, REFUND_QUEUE, { refundId: row!.id } satisfies RefundJob, refundJobKey(row!.id));
}

/** The refund row a job names: by its id, or (a job of the old shape) by the subscription id in clear. */
async function refundNamedBy(db: Db, job: RefundJob | OldShapeRefundJob): Promise<RefundRow | undefined> {
  if ('refundId' in job) return (await db.select().from(refunds).where(eq(refunds.id, job.refundId)))[0];
  // A hashed id names no provider record: the provider is never asked with one (nor is one ever owed).
  if (isForgottenProviderId(job.subscriptionId)) return undefined;
  return (await db.select().from(refunds).where(eq(refunds.providerSubscriptionId, job.subscriptionId)))[0];
}

/**
 * The refund job: ends the subscription at the provider and refunds it, then records what became of it.
 * Throwing leaves the row owed and the job is retried; the provider adapter makes sure a retry never
 * refunds twice. A job of either shape (RefundJob, OldShapeRefundJob) is carried out.
 */
export async function carryOutRefund(db: Db, payments: PaymentProvider, jobs: JobSender, job: RefundJob | OldShapeRefundJob): Promise<RefundAttempt> {
  const named = await refundNamedBy(db, job);
  const outcome = named ? await attemptRefund(db, payments, jobs, named) : 'nothing_to_do';
  const [after] = named ? await db.select({ userId: refunds.userId, state: refunds.state }).from(refunds).where(eq(refunds.id, named.id)) : [];
  return { outcome, forgetJob: !after || (after.userId === null && after.state !== 'owed') };
}

/** The reason a refund is failed with when its job ran out of retries (the provider never answered it). */
const RETRIES_EXHAUSTED = 'retries_exhausted';

/**
 * The refund job's last attempt threw (issue 46, item 4): a refund still owed whose provider refund is not
 * known is failed for good with RETRIES_EXHAUSTED, and the customer told that support will contact them, as
 * any failed refund. Answers whether it was failed now (the caller's alert). A refund the provider accepted
 * (its id stored) is left to its own events.
 */
export async function giveUpRefund(db: Db, jobs: JobSender, job: RefundJob | OldShapeRefundJob, now = new Date()): Promise<boolean> {
  const named = await refundNamedBy(db, job);
  if (!named || named.state !== 'owed' || named.providerRefundId) return false;
  return db.transaction((tx) => failRefund(tx, jobs, named.providerSubscriptionId, RETRIES_EXHAUSTED, now));
}

async function attemptRefund(db: Db, payments: PaymentProvider, jobs: JobSender, owed: RefundRow): Promise<RefundOutcome> {
  // Made, failed or not owed already; or accepted as pending, whose own events settle it.
  if (owed.state !== 'owed' || owed.providerRefundId) return 'nothing_to_do';
  // A hashed id names no provider record: the provider is never asked with one (a refund owed keeps its ids in clear).
  if ([owed.providerSubscriptionId, owed.chargeId, owed.paymentIntent].some(isForgottenProviderId)) return 'nothing_to_do';
  const subscriptionId = owed.providerSubscriptionId;
  const result = await payments.cancelAndRefund({
    subscriptionId,
    key: providerRefundKey(subscriptionId),
    chargeId: owed.chargeId,
    // A duplicate's money is owed whatever ended it (issue 46, item 1); a deleted account's subscription only if this refund ends it.
    owedWhoeverEndsIt: owed.reason === 'second_subscription',
    owed: owed.amount !== null && owed.currency ? { amount: owed.amount, currency: owed.currency } : null,
    // Stored before the provider is asked: its charge.refunded may arrive before its answer.
    onPaymentChosen: async (paymentIntent) => {
      await db.update(refunds).set({ paymentIntent }).where(eq(refunds.providerSubscriptionId, subscriptionId));
    },
  });
  return db.transaction(async (tx) => {
    const outcome = await recordRefundResult(tx, jobs, owed, result);
    await forgetProviderIds(tx, jobs, { subscriptionId });
    return outcome;
  });
}

async function recordRefundResult(tx: Db, jobs: JobSender, owed: RefundRow, result: RefundResult, now = new Date()): Promise<RefundOutcome> {
  const row = eq(refunds.providerSubscriptionId, owed.providerSubscriptionId);
  switch (result.kind) {
    case 'not_owed': {
      const [notOwed] = await tx
        .update(refunds)
        .set({ state: 'not_owed', stateReason: result.reason, noticeId: null })
        .where(and(row, eq(refunds.state, 'owed')))
        .returning();
      // Nothing to announce: the address deletion kept for its notice goes.
      if (notOwed && owed.noticeId) await forgetNoticeAddress(tx, owed.noticeId);
      return 'not_owed';
    }
    case 'failed':
      // Owed before its amount was known (a second subscription whose invoice had not arrived, a deleted
      // account's): the provider's figure, so its e-mail and its history line still say it (issue 46, item 4).
      if (owed.amount === null && result.amount !== undefined && result.currency) {
        await tx.update(refunds).set({ amount: result.amount, currency: result.currency }).where(and(row, sql`${refunds.amount} is null`));
      }
      await failRefund(tx, jobs, owed.providerSubscriptionId, result.reason, now);
      return 'failed';
    case 'made': {
      const { refundId: providerRefundId, paymentIntent, amount, currency } = result;
      await tx.update(refunds).set({ providerRefundId, paymentIntent, amount, currency }).where(row);
      if (result.pending) return 'pending';
      await makeRefund(tx, jobs, owed.providerSubscriptionId, now);
      return 'made';
    }
  }
}

/**
 * Deletion (issue 31), inside its transaction: each refund of the account that can still be announced
 * keeps the address its notice goes to, in a row of its own (notice-addresses.ts; the account row that
 * holds the address goes now). A refund still owed keeps it until its notice (made or failed) is owed; a
 * refund made keeps it for REFUND_FAILURE_WATCH_MS after it was made, should the provider report it failed.
 * Then the provider's ids of the account's settled refunds are hashed and their finished jobs deleted (forgetProviderIds).
 */
export async function keepRefundsForDeletion(tx: Db, jobs: JobSender, userId: string, to: NoticeAddress, now = new Date()): Promise<void> {
  for (const refund of await tx.select().from(refunds).where(eq(refunds.userId, userId))) {
    const watchedUntil = refund.refundedAt ? new Date(refund.refundedAt.getTime() + REFUND_FAILURE_WATCH_MS) : null;
    let noticeId: string | null = null;
    if (refund.state === 'owed') noticeId = await keepNoticeAddress(tx, to);
    else if (refund.state === 'made' && canFailLater(refund) && watchedUntil && watchedUntil > now) noticeId = await keepNoticeAddress(tx, to, watchedUntil);
    if (noticeId) await tx.update(refunds).set({ noticeId }).where(eq(refunds.providerSubscriptionId, refund.providerSubscriptionId));
  }
  await forgetProviderIds(tx, jobs, { userId });
}

/**
 * Who the notice of refund `row` goes to: its account, or the address deletion kept for it (handed to the
 * message, which deletes it once sent); null: nobody.
 */
async function noticeRecipient(tx: Db, row: Pick<RefundRow, 'userId' | 'noticeId'>): Promise<{ userId: string } | { noticeId: string } | null> {
  if (row.userId) return { userId: row.userId };
  if (!row.noticeId) return null;
  await handNoticeAddressToMessage(tx, row.noticeId);
  return { noticeId: row.noticeId };
}

/** Only a Stripe refund can fail after it was made (its refund.failed); the local checkout's never does. */
const canFailLater = (refund: Pick<RefundRow, 'provider'>) => refund.provider === 'stripe';

/**
 * A refund of a deleted account made now keeps a standby copy of its notice's address, should the
 * provider report it failed later (its refund_failed notice); purged after REFUND_FAILURE_WATCH_MS.
 */
async function standbyAddress(tx: Db, noticeId: string | null, now: Date): Promise<string | null> {
  const to = noticeId ? await readNoticeAddress(tx, noticeId) : null;
  return to ? keepNoticeAddress(tx, to, new Date(now.getTime() + REFUND_FAILURE_WATCH_MS)) : null;
}

/** The refund's row as it is before `tx` changes it (the kept address a settling update hands on). */
async function refundBefore(tx: Db, subscriptionId: string): Promise<RefundRow | undefined> {
  const [row] = await tx.select().from(refunds).where(eq(refunds.providerSubscriptionId, subscriptionId));
  return row;
}

/** The money left: the row says so and the customer is owed the refund e-mail, for Stripe's amount. */
async function makeRefund(tx: Db, jobs: JobSender, subscriptionId: string, now: Date): Promise<void> {
  const before = await refundBefore(tx, subscriptionId);
  const standby = before?.state === 'owed' && !before.userId && canFailLater(before) ? await standbyAddress(tx, before.noticeId, now) : null;
  const [made] = await tx
    .update(refunds)
    .set({ state: 'made', refundedAt: now, noticeId: standby })
    .where(and(eq(refunds.providerSubscriptionId, subscriptionId), eq(refunds.state, 'owed')))
    .returning();
  const to = made && before ? await noticeRecipient(tx, before) : null;
  if (made && to && made.amount !== null && made.currency) {
    await oweCustomerMessage(
      tx,
      jobs,
      { kind: 'refund', ...to, amount: made.amount, currency: made.currency, refundedAt: now.toISOString(), reason: made.reason },
      subscriptionId,
    );
  } else if (to && 'noticeId' in to) {
    await forgetNoticeAddress(tx, to.noticeId);
  }
}

/**
 * The refund failed for good: recorded with the reason, and the customer told that support will contact
 * them (the alert is the caller's: a counter the on-call runbook watches). Answers false if it had failed already.
 */
async function failRefund(tx: Db, jobs: JobSender, subscriptionId: string, reason: string, now: Date): Promise<boolean> {
  const before = await refundBefore(tx, subscriptionId);
  const [failed] = await tx
    .update(refunds)
    .set({ state: 'failed', stateReason: reason, failedAt: now, noticeId: null })
    .where(and(eq(refunds.providerSubscriptionId, subscriptionId), inArray(refunds.state, ['owed', 'made'])))
    .returning();
  if (!failed) return false;
  const to = before ? await noticeRecipient(tx, before) : null;
  if (to && failed.amount !== null && failed.currency) {
    await oweCustomerMessage(
      tx,
      jobs,
      { kind: 'refund_failed', ...to, amount: failed.amount, currency: failed.currency, failedAt: now.toISOString() },
      subscriptionId,
    );
  } else if (to && 'noticeId' in to) {
    await forgetNoticeAddress(tx, to.noticeId);
  }
  return true;
}

/** A refund's later status as the provider reports it (Stripe's refund.updated, refund.failed, charge.refund.updated). */
export interface ProviderRefundStatus {
  refundId: string;
  /** The key our refund job gave the refund (its metadata, `refund:<subscription>`), or null: not ours, or not said. */
  jobKey: string | null;
  status: 'succeeded' | 'failed' | 'pending';
  /** The provider's failure reason (`failure_reason`), when failed. */
  failureReason: string | null;
}

/**
 * Applies a refund's later status to the refund made here that it names: a pending refund becomes made; a
 * refund that fails (even one made) becomes failed. Answers 'failed' when it newly failed (the alert),
 * 'applied' for any other change, 'ignored' when it names no refund of ours or changes nothing.
 */
export async function applyRefundStatus(tx: Db, jobs: JobSender, update: ProviderRefundStatus, now = new Date()): Promise<'failed' | 'applied' | 'ignored'> {
  // A refund settled after its account was deleted is known by its refund id's hash.
  let [ours] = await tx
    .select()
    .from(refunds)
    .where(inArray(refunds.providerRefundId, [update.refundId, forgottenProviderId(update.refundId)]));
  ours ??= (await refundAwaitingItsId(tx, update))[0];
  if (!ours) return 'ignored';
  let outcome: 'failed' | 'applied' | 'ignored' = 'ignored';
  if (update.status === 'failed') {
    outcome = (await failRefund(tx, jobs, ours.providerSubscriptionId, update.failureReason ?? 'failed', now)) ? 'failed' : 'ignored';
  } else if (update.status === 'succeeded' && ours.state === 'owed') {
    await makeRefund(tx, jobs, ours.providerSubscriptionId, now);
    outcome = 'applied';
  }
  await forgetProviderIds(tx, jobs, { subscriptionId: ours.providerSubscriptionId });
  return outcome;
}

/**
 * The refund a status event names by our job's key (the refund's metadata) whose provider id the job has
 * not stored yet (its answer is still on its way, or was lost): the id is stored now, so the event is
 * applied, not ignored for ever (issue 46, item 4). Empty when the key names no such refund.
 */
async function refundAwaitingItsId(tx: Db, update: ProviderRefundStatus): Promise<RefundRow[]> {
  const subscriptionId = update.jobKey?.startsWith('refund:') ? update.jobKey.slice('refund:'.length) : null;
  if (!subscriptionId) return [];
  return tx
    .update(refunds)
    .set({ providerRefundId: update.refundId })
    .where(
      and(
        inArray(refunds.providerSubscriptionId, [subscriptionId, forgottenProviderId(subscriptionId)]),
        sql`${refunds.providerRefundId} is null`,
        inArray(refunds.state, ['owed', 'made']),
      ),
    )
    .returning();
}

/** The account's refunds in any state (billing history, the money-back rule). */
export function refundsOf(db: Db, userId: string) {
  return db.select().from(refunds).where(eq(refunds.userId, userId));
}

/**
 * What an account's refunds say of the subscription it is shown (issue 45, T8 and T23): when that
 * subscription ended with its payment refunded (a money-back or support's refund, owed or made: refundNow
 * ends the subscription in the transaction that owes it), and whether the account has had its money-back
 * refund, which is once per account. verify reads the same in its one statement (refundFactsSql).
 */
export interface RefundFacts {
  refundedAt: Date | null;
  moneyBackUsed: boolean;
}

const ENDING_REASONS: ReadonlySet<string> = new Set(['money_back', 'staff']);

export async function refundFacts(db: Db, userId: string, providerSubscriptionId: string): Promise<RefundFacts> {
  const rows = await refundsOf(db, userId);
  const ended = rows.find(
    (refund) => refund.providerSubscriptionId === providerSubscriptionId && ENDING_REASONS.has(refund.reason) && (refund.state === 'owed' || refund.state === 'made'),
  );
  return { refundedAt: ended?.owedAt ?? null, moneyBackUsed: rows.some((refund) => refund.reason === 'money_back') };
}

/** refundFacts as two SQL columns, for a statement that has the subscription's provider id and the account's id. */
export function refundFactsSql(providerSubscriptionId: string, userId: string): string {
  return `(select r.owed_at from refunds r
              where r.provider_subscription_id = ${providerSubscriptionId} and r.reason in (${[...ENDING_REASONS].map((reason) => `'${reason}'`).join(', ')})
                and r.state in ('owed', 'made')),
            exists (select 1 from refunds r where r.user_id = ${userId} and r.reason = 'money_back')`;
}

export interface ProviderRefund {
  /** The refunded charge's id. */
  id: string;
  paymentIntent: string | null;
  /** All refunded of that charge so far. */
  amount: number;
  currency: string;
  /** The provider's time of the report. */
  refundedAt: Date;
  receiptUrl: string | null;
}

/**
 * Stores a refund the provider reports: a later report of the same charge (another partial refund)
 * replaces the total, an older one delivered late never does (Stripe does not promise order).
 */
export async function recordProviderRefund(tx: Db, userId: string, refund: ProviderRefund): Promise<void> {
  await tx
    .insert(providerRefunds)
    .values({ ...refund, userId })
    .onConflictDoUpdate({
      target: providerRefunds.id,
      set: { amount: refund.amount, refundedAt: refund.refundedAt },
      setWhere: sql`${providerRefunds.refundedAt} <= excluded.refunded_at`,
    });
}

/** The account's refunds as the provider reported them. */
export function providerRefundsOf(db: Db, userId: string) {
  return db.select().from(providerRefunds).where(eq(providerRefunds.userId, userId));
}
