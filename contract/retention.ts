/**
 * What we keep and for how long (issue 31, design §7e): the one list of every kind of personal data the
 * product writes (database tables and their columns, job payloads, logs, traces, metrics, mail), why, how
 * long, and whether deleting the account removes it. The privacy page's "What we keep and for how long"
 * table and docs/retention.md are built from it (`npm run docs:retention`), and
 * tests/server/retention-list.test.ts holds it to the database: a table or column that exists and is not
 * named here fails, and so does a name here that does not exist.
 *
 * Adding a table or a column: name it in `tables` of the entry it belongs to (or add an entry), or, when it
 * says nothing about a person, in TABLES_WITHOUT_PERSONAL_DATA with the reason; then `npm run docs:retention`.
 */

/**
 * How long a refund of a deleted account is kept as an accounting record, counted from when it was owed:
 * the longest period accounting and tax law asks of a business in the EU (10 years; several ask less).
 * The daily clean-up deletes it after that.
 */
export const ACCOUNTING_RECORD_YEARS = 10;
/** How long staff actions and looks (with their reasons and search texts) are kept: the database refuses an earlier deletion (migration 0018). */
export const STAFF_AUDIT_YEARS = 6;

/** Where a kind of data is written. */
type Store = 'database' | 'job queue' | 'logs' | 'traces' | 'metrics' | 'mail';

export interface RetainedData {
  /** Stable key (the export names its parts by it). */
  key: string;
  /** What it is, as the customer reads it on the privacy page. */
  what: string;
  why: string;
  /** How long it is kept while the account exists. */
  kept: string;
  /** What deleting the account does to it. */
  onDeletion: string;
  /** Whether deleting the account removes it at once (false: kept for the time `onDeletion` says, or unlinked). */
  removedByDeletion: boolean;
  store: Store;
  /** The database tables and every column of each that holds it (store `database`). */
  tables?: Readonly<Record<string, readonly string[]>>;
}

/** The cool-down the policy states (DELETED_ACCOUNT_COOLDOWN's default; the API may be set longer, never the page). */
const COOLDOWN_DAYS = 7;

export const RETAINED_DATA: readonly RetainedData[] = [
  {
    key: 'account',
    what: 'Your account: e-mail address, name, sign-in provider and its account identifier, our payment provider’s customer number, and when you signed up',
    why: 'To sign you in, write to you about your account, and connect your payments to it',
    kept: 'While you have an account',
    onDeletion: 'Deleted at once',
    removedByDeletion: true,
    store: 'database',
    tables: { users: ['id', 'identity_subject', 'provider', 'email', 'name', 'payment_customer_id', 'payment_customers_deleted', 'created_at', 'disabled_at'] },
  },
  {
    key: 'devices',
    what: 'Signed-in devices: the name a desktop app gives its computer, when each sign-in started, the day it was last used, when it expires or was signed out (the sign-in token itself only as a one-way hash)',
    why: 'To list your devices so you can sign one out, enforce the device limit, and stop a stolen sign-in',
    kept: 'While you have an account; a sign-in expires after 30 days',
    onDeletion: 'Deleted at once',
    removedByDeletion: true,
    store: 'database',
    tables: { sessions: ['id', 'user_id', 'token_hash', 'kind', 'device_name', 'created_at', 'last_used_at', 'expires_at', 'revoked_at'] },
  },
  {
    key: 'wireguard_keys',
    what: 'WireGuard configurations: the name you give each, its public key (never the private key, which stays on your device), its two addresses inside the VPN, whether the VPN servers may let it connect, and when it was made; nothing about when or from where it connects',
    why: 'So the VPN servers let your devices connect while your plan runs, and so you can list, replace and remove them',
    kept: 'While you have an account (also while your plan has lapsed, so subscribing again brings them back)',
    onDeletion: 'Deleted at once; the VPN servers drop the keys at their next check',
    removedByDeletion: true,
    store: 'database',
    tables: {
      wireguard_keys: ['id', 'user_id', 'session_id', 'name', 'public_key', 'ipv4_address', 'ipv6_address', 'listed', 'expires_at', 'listed_until', 'created_at'],
    },
  },
  {
    key: 'peer_changes',
    what: 'The VPN servers’ change list: public keys and VPN addresses added to or removed from the servers, with when (not linked to an account)',
    why: 'So a VPN server that checks every few seconds reads only what changed',
    kept: '7 days; deleted by the daily clean-up after that',
    onDeletion: 'The removal of your keys is written to it; kept for the rest of the 7 days',
    removedByDeletion: false,
    store: 'database',
    tables: { peer_changes: ['version', 'public_key', 'ipv4_address', 'ipv6_address', 'change', 'changed_at', 'expires_at'] },
  },
  {
    key: 'removed_keys',
    what: 'Public keys removed in the last minutes, with when (not linked to an account)',
    why: 'A removed key cannot come back until every VPN server has dropped it',
    kept: '5 minutes (cleared at the VPN servers’ next check after that)',
    onDeletion: 'Your keys are written to it for those 5 minutes',
    removedByDeletion: false,
    store: 'database',
    tables: { removed_wireguard_keys: ['public_key', 'removed_at'] },
  },
  {
    key: 'handoffs',
    what: 'One-time desktop sign-in codes (as a one-way hash), with the sign-in that made them',
    why: 'To sign the desktop app in without putting your sign-in in a link',
    kept: 'Valid for 2 minutes; deleted by the daily clean-up once used or expired',
    onDeletion: 'Deleted at once',
    removedByDeletion: true,
    store: 'database',
    tables: { handoff_tokens: ['token_hash', 'user_id', 'session_id', 'created_at', 'expires_at', 'used_at', 'code_challenge'] },
  },
  {
    key: 'subscription',
    what: 'Your subscription: plan, status, current period and whether auto-renewal is on, with the payment provider’s subscription number',
    why: 'To give you access while your plan runs and to manage renewals',
    kept: 'While you have an account',
    onDeletion: 'Ended at the payment provider and deleted at once',
    removedByDeletion: true,
    store: 'database',
    tables: {
      subscriptions: ['provider_subscription_id', 'user_id', 'provider', 'status', 'plan', 'cancel_at_period_end', 'current_period_end', 'unpaid', 'provider_updated_at', 'updated_at'],
    },
  },
  {
    key: 'checkouts',
    what: 'Checkout and billing-portal links you opened (the link is the key to the page)',
    why: 'To reopen the checkout you already started instead of a second one, and to let you update your card',
    kept: 'Valid for an hour to a day; deleted by the daily clean-up once expired (a local checkout page a day after it was opened)',
    onDeletion: 'Closed and deleted at once',
    removedByDeletion: true,
    store: 'database',
    tables: {
      open_checkouts: ['user_id', 'provider', 'checkout_id', 'url', 'expires_at', 'created_at'],
      local_checkout_sessions: ['id', 'user_id', 'status', 'created_at'],
      local_portal_sessions: ['id', 'user_id', 'expires_at'],
    },
  },
  {
    key: 'payments',
    what: 'Your payments and refunds: amount, currency, date, description, receipt link and the payment’s number at the payment provider; disputes of a payment with your card issuer (their number, the payment, their state and when opened)',
    why: 'To show your billing history and receipts, and to honour the money-back guarantee (not while a dispute of a payment is open)',
    kept: 'While you have an account',
    onDeletion: 'Deleted at once (our payment provider keeps its own records as tax and accounting law requires)',
    removedByDeletion: true,
    store: 'database',
    tables: {
      charges: ['id', 'user_id', 'provider', 'provider_subscription_id', 'amount', 'currency', 'paid_at', 'description', 'receipt_url', 'payment_intent'],
      provider_refunds: ['id', 'user_id', 'payment_intent', 'amount', 'currency', 'refunded_at', 'receipt_url'],
      disputes: ['id', 'user_id', 'charge_id', 'payment_intent', 'status', 'provider_updated_at', 'opened_at'],
    },
  },
  {
    key: 'refunds_owed',
    what: 'Refunds we owe, made or that failed: amount, currency, reason, state (and why it failed), when owed, made or failed, and the payment, charge and refund numbers at the payment provider',
    why: 'So that a refund we owe is always made, even after the account is deleted, and because accounting law asks us to keep a record of every refund',
    kept: `While you have an account; after deletion, ${ACCOUNTING_RECORD_YEARS} years from when the refund was owed, as an accounting record, then deleted by the daily clean-up`,
    onDeletion:
      'Kept as an accounting record (amount, currency, reason, state and dates) without your account number; the payment provider’s subscription, payment, charge and refund numbers, which lead to you at the payment provider, are replaced by a one-way hash (a refund still owed keeps them until it is made, as the payment provider must be asked with them)',
    removedByDeletion: false,
    store: 'database',
    tables: {
      refunds: [
        'id',
        'provider_subscription_id',
        'user_id',
        'provider',
        'reason',
        'amount',
        'currency',
        'owed_at',
        'refunded_at',
        'payment_intent',
        'state',
        'state_reason',
        'failed_at',
        'provider_refund_id',
        'charge_id',
        'notice_id',
      ],
    },
  },
  {
    key: 'notice_addresses',
    what: 'After deletion: your e-mail address and name, for the e-mails still owed to you (the deletion confirmation, and the notice of a refund claimed before deletion)',
    why: 'To confirm the deletion, and because we promise a notice of every refund, made or failed',
    kept: 'Until that e-mail is sent; for a card refund made before deletion (the payment provider may report it failed days later), until 30 days after it was made, then deleted by the daily clean-up',
    onDeletion: 'Written by deletion; each address is deleted as soon as the e-mail it is for is sent (or fails for good)',
    removedByDeletion: false,
    store: 'database',
    tables: { notice_addresses: ['id', 'email', 'name', 'created_at', 'keep_until'] },
  },
  {
    key: 'tombstones',
    what: 'After deletion: a one-way hash of your sign-in identity and of your e-mail address, with the time of deletion',
    why: 'To stop a deleted account from being re-created at once to abuse the service',
    kept: `${COOLDOWN_DAYS} days after deletion`,
    onDeletion: `Written by deletion; deleted by the daily clean-up after ${COOLDOWN_DAYS} days`,
    removedByDeletion: false,
    store: 'database',
    tables: { deletion_tombstones: ['subject_hash', 'deleted_at'] },
  },
  {
    key: 'deleted_accounts',
    what: 'After deletion: a one-way hash of the deleted account’s internal number, with the time of deletion',
    why: 'So that a payment still arriving for a deleted account (a checkout left open in another tab) is refunded',
    kept: '30 days after deletion (the payment provider resends a payment’s news for 30 days)',
    onDeletion: 'Written by deletion; deleted by the daily clean-up after 30 days',
    removedByDeletion: false,
    store: 'database',
    tables: { deleted_accounts: ['user_id_hash', 'deleted_at'] },
  },
  {
    key: 'account_activity',
    what: 'Your account activity: what happened to your account (a new device, a device signed out, auto-renewal off or on, a refund, an action by Veil support) with the day only, never the time, your IP address or browser',
    why: 'To show you what happened to your account, so that you notice what you did not do',
    kept: 'While you have an account',
    onDeletion: 'Deleted at once',
    removedByDeletion: true,
    store: 'database',
    tables: { account_activity: ['id', 'user_id', 'kind', 'actor', 'detail', 'occurred_on'] },
  },
  {
    key: 'staff_actions',
    what: 'What Veil support did on your account or looked at: the action, the staff member, their reason and its outcome, each time they opened your account, and the text of each search (which may be your e-mail address), with your account named only by a one-way hash of its number',
    why: 'So that every support action can be checked later; nobody can change or remove a record',
    kept: `${STAFF_AUDIT_YEARS} years from the action or look, reason and search text with it, as the audit trail (the database refuses any change, and any deletion before then); then deleted by the daily clean-up`,
    onDeletion: 'Kept; the hash of your account number no longer leads to any account',
    removedByDeletion: false,
    store: 'database',
    tables: {
      staff_actions: ['id', 'occurred_at', 'staff_uid', 'staff_email', 'role', 'action', 'target_hash', 'reason', 'params', 'outcome', 'outcome_code'],
    },
  },
  {
    key: 'jobs',
    what: 'Work we still owe you: e-mails to send and payment-provider calls to make, named by numbers only (your account, a device’s sign-in, a refund), with amounts and dates; never your e-mail address, your name or a device’s name, which are read when the e-mail is sent',
    why: 'So that no e-mail, refund or cancellation is lost or done twice',
    kept: 'Until done, then 7 days',
    onDeletion:
      'Your e-mails, sent or still owed, are deleted at once (one being sent at that moment loses your numbers at once and is deleted when it ends); a refund’s notice still owed and the deletion confirmation are sent to the address kept for them (see above), then deleted; a refund’s jobs are deleted once the refund is settled and kept as an accounting record (see above)',
    removedByDeletion: false,
    store: 'job queue',
  },
  {
    key: 'mail',
    what: 'E-mails we send you: their text, to your address',
    why: 'Receipts, refund and renewal notices, security notices and the deletion confirmation',
    kept: 'Our e-mail delivery provider receives them to deliver them',
    onDeletion: 'Nothing more is sent after the deletion confirmation',
    removedByDeletion: false,
    store: 'mail',
  },
  {
    key: 'logs',
    what: 'Request logs: time, method, the kind of page or call (never its link, your address, IP address or browser), answer and duration',
    why: 'To find and fix faults',
    kept: 'As long as the operator’s log retention setting says',
    onDeletion: 'Nothing in them names you',
    removedByDeletion: false,
    store: 'logs',
  },
  {
    key: 'traces',
    what: 'Performance traces (when turned on): the kind of call, its timings and database queries, never their values, your IP address or browser',
    why: 'To find what makes the service slow',
    kept: 'As long as the operator’s trace retention setting says',
    onDeletion: 'Nothing in them names you',
    removedByDeletion: false,
    store: 'traces',
  },
  {
    key: 'metrics',
    what: 'Counters: how many calls, e-mails and jobs, by kind and outcome',
    why: 'To see that the service works',
    kept: 'As long as our monitoring keeps them',
    onDeletion: 'Nothing in them names you',
    removedByDeletion: false,
    store: 'metrics',
  },
];

/** Tables that hold nothing about a person, with every column and the reason (the schema test reads them too). */
export const TABLES_WITHOUT_PERSONAL_DATA: Readonly<Record<string, { columns: readonly string[]; why: string }>> = {
  payment_events: { columns: ['id', 'type', 'provider_created', 'received_at'], why: 'the payment provider’s event ids, recorded once each; no account or amount' },
  local_billing_clock: { columns: ['id', 'offset_seconds'], why: 'how far the local checkout’s test clock runs ahead' },
  schema_migrations: { columns: ['id', 'applied_at'], why: 'which migrations ran' },
  peer_log: { columns: ['id', 'version', 'floor'], why: 'the VPN servers’ change list’s current and oldest version numbers' },
  relay_servers: {
    columns: ['server_id', 'confirmed_version', 'reported_at', 'version_applied', 'peers', 'active_peers', 'uptime_seconds', 'agent_version', 'last_interval', 'first_reported_at'],
    why: 'each VPN server’s latest health report only (counts of peers, never a key, address or connection time), the change-list version it confirmed, and when its first report arrived (its measured uptime counts from there)',
  },
  relay_uptime_days: { columns: ['server_id', 'day', 'intervals'], why: 'per VPN server and day, how many minutes it reported (its measured uptime); kept 91 days' },
};

/**
 * Columns never given out, not even to the account's owner in their copy (POST /api/account/export): token
 * hashes, hand-off codes and links or ids that open a page by themselves (a checkout, the billing portal, a
 * receipt: a local receipt's number is its page's address, /api/billing/receipts/<id>; issue 46, item 12).
 */
export const SECRET_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  sessions: ['token_hash'],
  handoff_tokens: ['token_hash', 'code_challenge'],
  open_checkouts: ['checkout_id', 'url'],
  local_checkout_sessions: ['id'],
  local_portal_sessions: ['id'],
  charges: ['id', 'receipt_url'],
  provider_refunds: ['receipt_url'],
  // The receipt number of the payment a refund is of.
  refunds: ['charge_id'],
};

/** The column naming the account a table's rows belong to (the customer's copy reads by it): `users.id`, else `user_id`. */
export function ownerColumn(table: string): string {
  return table === 'users' ? 'id' : 'user_id';
}
