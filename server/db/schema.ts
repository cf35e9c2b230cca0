/** The database schema for drizzle, mirroring server/db/migrations (the migrations are the truth). */
import { sql } from 'drizzle-orm';
import { bigint, boolean, date, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import type { ActivityDetail, ActivityKind } from '../../contract/account-activity.ts';
import type { StaffActionName, StaffRole } from '../../contract/staff.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

// Columns several tables declare alike, written once so that they stay alike. Each is a function: a
// column builder belongs to the one table it is put in.

/** The account a row belongs to; deleting the account deletes the row (ON DELETE CASCADE). */
const ownedByAccount = () =>
  text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/** Which payment provider a subscription, checkout, charge or refund is with. */
const paymentProvider = () => text('provider').$type<'stripe' | 'local'>().notNull();

/** An amount of money: `amount` in the currency's smallest unit (cents for usd), `currency` its code. */
const money = () => ({
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
});

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  identitySubject: text('identity_subject').notNull().unique(),
  provider: text('provider').$type<'google' | 'apple'>().notNull(),
  email: text('email').notNull(),
  name: text('name').notNull().default(''),
  paymentCustomerId: text('payment_customer_id').unique(),
  /** Customers of the account deleted at the provider so far: part of the next one's idempotency key (0007). */
  paymentCustomersDeleted: integer('payment_customers_deleted').notNull().default(0),
  createdAt: at('created_at').notNull().defaultNow(),
  /** Set by staff (disable): no sign-in, no session, no device on the relay list until enabled (0009). */
  disabledAt: at('disabled_at'),
});

export const sessions = pgTable('sessions', {
  id: text('id').primaryKey(),
  userId: ownedByAccount(),
  tokenHash: text('token_hash').notNull().unique(),
  kind: text('kind').$type<'web' | 'desktop'>().notNull(),
  deviceName: text('device_name'),
  createdAt: at('created_at').notNull().defaultNow(),
  /** The day (UTC midnight) of the last use, never its time (0010). */
  lastUsedAt: at('last_used_at').notNull().default(sql`(date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`),
  expiresAt: at('expires_at').notNull(),
  revokedAt: at('revoked_at'),
});

export const handoffTokens = pgTable('handoff_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  userId: ownedByAccount(),
  /** The web session that minted it; the token redeems only while that session is live (0002). */
  sessionId: text('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
  createdAt: at('created_at').notNull().defaultNow(),
  expiresAt: at('expires_at').notNull(),
  usedAt: at('used_at'),
  /** PKCE (0005): base64url SHA-256 of the desktop app's verifier when the app started the pairing. */
  codeChallenge: text('code_challenge'),
});

/** One row per provider subscription; at most one live (active or past_due) per account. */
export const subscriptions = pgTable('subscriptions', {
  providerSubscriptionId: text('provider_subscription_id').primaryKey(),
  userId: ownedByAccount(),
  provider: paymentProvider(),
  status: text('status').notNull(),
  plan: text('plan'),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  currentPeriodEnd: at('current_period_end'),
  /** Stripe's `unpaid`: shown as `past_due`, but without VPN access (issue 46, item 2). */
  unpaid: boolean('unpaid').notNull().default(false),
  providerUpdatedAt: bigint('provider_updated_at', { mode: 'number' }).notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  providerCreated: bigint('provider_created', { mode: 'number' }).notNull(),
  receivedAt: at('received_at').notNull().defaultNow(),
});

export const localCheckoutSessions = pgTable('local_checkout_sessions', {
  id: text('id').primaryKey(),
  userId: ownedByAccount(),
  status: text('status').$type<'open' | 'completed' | 'cancelled'>().notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

/** The checkout an account has open, reused until shortly before it expires. */
export const openCheckouts = pgTable('open_checkouts', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  provider: paymentProvider(),
  checkoutId: text('checkout_id').notNull(),
  url: text('url').notNull(),
  expiresAt: at('expires_at').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

/** How far the local checkout's billing clock runs ahead of real time (one row at most). */
export const localBillingClock = pgTable('local_billing_clock', {
  id: smallint('id').primaryKey().default(1),
  offsetSeconds: bigint('offset_seconds', { mode: 'number' }).notNull().default(0),
});

export const deletionTombstones = pgTable('deletion_tombstones', {
  subjectHash: text('subject_hash').primaryKey(),
  deletedAt: at('deleted_at').notNull().defaultNow(),
});

/** Deleted accounts by the hash of their user id, so a late payment for one is refunded (0004). */
export const deletedAccounts = pgTable('deleted_accounts', {
  userIdHash: text('user_id_hash').primaryKey(),
  deletedAt: at('deleted_at').notNull().defaultNow(),
});

/** WireGuard keys: devices of their own, or a desktop session's key (0008). */
export const wireguardKeys = pgTable('wireguard_keys', {
  id: text('id').primaryKey(),
  userId: ownedByAccount(),
  sessionId: text('session_id')
    .unique()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  publicKey: text('public_key').notNull().unique(),
  ipv4Address: text('ipv4_address').notNull().unique(),
  ipv6Address: text('ipv6_address').notNull().unique(),
  /** In the relays' peer list (the account has access); changed only with a peer_changes row. */
  listed: boolean('listed').notNull().default(false),
  /** A desktop session's key: that session's end. */
  expiresAt: at('expires_at'),
  /** While listed: when its access ends if nothing else happens, as the peer list answers it (0016). */
  listedUntil: at('listed_until'),
  createdAt: at('created_at').notNull().defaultNow(),
});

/** The peer list's version and the lowest version a `since` poll can start from (one row, 0008). */
export const peerLog = pgTable('peer_log', {
  id: smallint('id').primaryKey().default(1),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  floor: bigint('floor', { mode: 'number' }).notNull().default(0),
});

/** Every change to the peer list, by version (0008). */
export const peerChanges = pgTable('peer_changes', {
  version: bigint('version', { mode: 'number' }).primaryKey(),
  publicKey: text('public_key').notNull(),
  ipv4Address: text('ipv4_address').notNull(),
  ipv6Address: text('ipv6_address').notNull(),
  change: text('change').$type<'added' | 'removed'>().notNull(),
  changedAt: at('changed_at').notNull().defaultNow(),
  /** An `added` change: the key's expiry (0016). */
  expiresAt: at('expires_at'),
});

/** Keys removed in the last minutes: not registered again until the block ends (0008). */
export const removedWireguardKeys = pgTable('removed_wireguard_keys', {
  publicKey: text('public_key').primaryKey(),
  removedAt: at('removed_at').notNull(),
});

/** Per catalogue server: its latest health report only, and the highest peer-list version it confirmed (0016). */
export const relayServers = pgTable('relay_servers', {
  serverId: text('server_id').primaryKey(),
  confirmedVersion: bigint('confirmed_version', { mode: 'number' }).notNull().default(0),
  reportedAt: at('reported_at'),
  versionApplied: bigint('version_applied', { mode: 'number' }),
  peers: integer('peers'),
  activePeers: integer('active_peers'),
  uptimeSeconds: bigint('uptime_seconds', { mode: 'number' }),
  agentVersion: text('agent_version'),
  /** The report interval (minute since the epoch) last counted in relay_uptime_days. */
  lastInterval: bigint('last_interval', { mode: 'number' }),
  /** When its first report arrived: its measured uptime counts from here (0019). */
  firstReportedAt: at('first_reported_at'),
});

/** The daily up/down tally: report intervals (minutes) with a report, per server and UTC day (0016). */
export const relayUptimeDays = pgTable('relay_uptime_days', {
  serverId: text('server_id').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  intervals: integer('intervals').notNull().default(0),
});

export const schema = { relayServers, relayUptimeDays, users, sessions, handoffTokens, subscriptions, paymentEvents, localCheckoutSessions, openCheckouts, localBillingClock, deletionTombstones, deletedAccounts, wireguardKeys, peerLog, peerChanges, removedWireguardKeys };

/** Every payment the provider reported: billing history and the money-back window (0005). */
export const charges = pgTable('charges', {
  id: text('id').primaryKey(),
  userId: ownedByAccount(),
  provider: paymentProvider(),
  providerSubscriptionId: text('provider_subscription_id'),
  ...money(),
  paidAt: at('paid_at').notNull(),
  description: text('description').notNull(),
  receiptUrl: text('receipt_url'),
  /** The provider's payment that paid it (Stripe's payment intent), when known (0013): reported refunds match it. */
  paymentIntent: text('payment_intent'),
});

/** Where a refund is (0007, docs/decisions.md): owed, made, failed for good, or not owed after all. */
export type RefundState = 'owed' | 'made' | 'failed' | 'not_owed';

/** Refunds owed, made or failed, recorded before the provider is asked (0005, 0007). */
export const refunds = pgTable('refunds', {
  /** One refund per subscription: a second event owing it again finds this row (the exactly-once rule). */
  providerSubscriptionId: text('provider_subscription_id').primaryKey(),
  /** Our own name for the refund, the one its job carries (0015): never the provider's ids (issue 31). */
  id: text('id').notNull().unique().default(sql`'rfd_' || replace(gen_random_uuid()::text, '-', '')`),
  userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
  provider: paymentProvider(),
  reason: text('reason').$type<'second_subscription' | 'deleted_account' | 'money_back' | 'staff'>().notNull(),
  /** Known once the provider said what it refunds (null while owed for a payment not read yet). */
  amount: integer('amount'),
  currency: text('currency'),
  owedAt: at('owed_at').notNull().defaultNow(),
  state: text('state').$type<RefundState>().notNull().default('owed'),
  /** Why it failed (the provider's code) or why nothing was owed. */
  stateReason: text('state_reason'),
  refundedAt: at('refunded_at'),
  failedAt: at('failed_at'),
  /** The payment the provider refunds (Stripe), stored before asking, to show it once with its charge.refunded. */
  paymentIntent: text('payment_intent'),
  /** The provider's refund (Stripe `re_…`), whose later failure events name it. */
  providerRefundId: text('provider_refund_id'),
  /** The charge the rule refunds (money-back: the first payment); null: the subscription's latest payment. */
  chargeId: text('charge_id'),
  /**
   * Once its account is deleted: the kept address its notice (made, or failed) goes to (0014). Set by
   * deletion while the refund can still be made or fail; handed to the notice when one is owed.
   */
  noticeId: text('notice_id').references(() => noticeAddresses.id, { onDelete: 'set null' }),
});

/**
 * The address an e-mail owed after its account is gone goes to (issue 31, 0014): the job names the row,
 * never the address; the mail worker deletes the row once the mail server took the message. A refund's
 * standby address (its failure still announced) is kept until `keepUntil`, then purged daily.
 */
export const noticeAddresses = pgTable('notice_addresses', {
  id: text('id').primaryKey(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
  keepUntil: at('keep_until'),
});

/** Refunds as Stripe reports them (`charge.refunded`), with Stripe's receipt (0005). */
export const providerRefunds = pgTable('provider_refunds', {
  id: text('id').primaryKey(),
  userId: ownedByAccount(),
  paymentIntent: text('payment_intent'),
  ...money(),
  refundedAt: at('refunded_at').notNull(),
  receiptUrl: text('receipt_url'),
});

/** The local billing portal page's sessions: the link is the credential, valid an hour (0005). */
export const localPortalSessions = pgTable('local_portal_sessions', {
  id: text('id').primaryKey(),
  userId: ownedByAccount(),
  expiresAt: at('expires_at').notNull(),
});

/** What happened to an account, as its owner sees it: day precision, no address, no agent (0009). */
export const accountActivity = pgTable('account_activity', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  userId: ownedByAccount(),
  kind: text('kind').$type<ActivityKind>().notNull(),
  actor: text('actor').$type<'customer' | 'support'>().notNull(),
  detail: jsonb('detail').$type<ActivityDetail>().notNull().default({}),
  /** The UTC day, never the time (zero-log). */
  occurredOn: date('occurred_on', { mode: 'string' }).notNull(),
});

/**
 * The staff audit trail (0009): append-only (a trigger refuses UPDATE and DELETE); the target account is
 * named by the SHA-256 of its id only, so the rows outlive a deletion without naming the account.
 */
export const staffActions = pgTable('staff_actions', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  occurredAt: at('occurred_at').notNull().defaultNow(),
  staffUid: text('staff_uid').notNull(),
  staffEmail: text('staff_email').notNull(),
  role: text('role').$type<StaffRole>().notNull(),
  /** An action, or a look (`search`, `view_customer`: issue 46, item 11). */
  action: text('action').$type<StaffActionName | 'search' | 'view_customer'>().notNull(),
  targetHash: text('target_hash').notNull(),
  reason: text('reason').notNull(),
  params: jsonb('params').$type<Record<string, string>>().notNull().default({}),
  outcome: text('outcome').$type<'done' | 'refused' | 'failed'>().notNull(),
  outcomeCode: text('outcome_code'),
});

/** Disputes of the account's payments (Stripe's charge.dispute.* events): no money-back claim while one is open (0007). */
export const disputes = pgTable('disputes', {
  id: text('id').primaryKey(),
  userId: ownedByAccount(),
  chargeId: text('charge_id'),
  paymentIntent: text('payment_intent'),
  status: text('status').notNull(),
  providerUpdatedAt: bigint('provider_updated_at', { mode: 'number' }).notNull(),
  openedAt: at('opened_at').notNull(),
});
