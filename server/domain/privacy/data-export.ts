/**
 * The customer's copy of their data (issue 31, item 4; GDPR articles 15 and 20): everything the retention
 * list (contract/retention.ts) names for the account, read table by table from the list itself, so a table
 * named there is in the copy without a change here. Secrets are left out (SECRET_COLUMNS): token hashes,
 * hand-off codes, and links or ids that open a page by themselves (a receipt's too). Needs a sign-in within the last 10 minutes.
 * Written for a person to read as well (issue 45, T16): labelled fields, ISO 8601 times, amounts with their
 * currency, no internal columns, and a summary in a few sentences at the top.
 */
import { sql } from 'drizzle-orm';
import type { AccountExport } from '../../../contract/api.ts';
import { ownerColumn, RETAINED_DATA, SECRET_COLUMNS } from '../../../contract/retention.ts';
import type { Db } from '../../db/database.ts';
import { accountOfIdentity, signedInRecently, type VerifiedIdentity } from '../accounts/accounts.ts';
import { failures } from '../errors.ts';
import { emailsSent } from '../customer-messages.ts';
import type { JobSender } from '../jobs.ts';
import { brandForServer } from '../../brand.ts';

/**
 * How a person reads each column (issue 45, T16): its label, and how its value is written: times as ISO 8601
 * (UTC), days as YYYY-MM-DD, money with its currency ("100.00 USD"), yes/no for flags. A column the retention
 * list names for a table that is not here is internal bookkeeping (INTERNAL_COLUMNS says why each is left out);
 * tests/server/data-export.test.ts holds every column to one of the three.
 */
type Shown = 'text' | 'time' | 'day' | 'money' | 'yesNo';
export const READABLE_COLUMNS: Readonly<Record<string, ReadonlyArray<readonly [column: string, label: string, shown: Shown]>>> = {
  users: [
    ['email', 'E-mail address', 'text'],
    ['name', 'Name', 'text'],
    ['provider', 'Signs in with', 'text'],
    ['identity_subject', 'Account identifier at the sign-in provider', 'text'],
    ['payment_customer_id', 'Customer number at the payment provider', 'text'],
    ['created_at', 'Signed up', 'time'],
    ['disabled_at', 'Disabled by Veil support', 'time'],
  ],
  sessions: [
    ['kind', 'Kind', 'text'],
    ['device_name', 'Device name', 'text'],
    ['created_at', 'Signed in', 'time'],
    ['last_used_at', 'Last used (day)', 'day'],
    ['expires_at', 'Expires', 'time'],
    ['revoked_at', 'Signed out', 'time'],
  ],
  wireguard_keys: [
    ['name', 'Name', 'text'],
    ['public_key', 'Public key', 'text'],
    ['ipv4_address', 'IPv4 address inside the VPN', 'text'],
    ['ipv6_address', 'IPv6 address inside the VPN', 'text'],
    ['listed', 'May connect now', 'yesNo'],
    ['created_at', 'Made', 'time'],
  ],
  handoff_tokens: [
    ['created_at', 'Made', 'time'],
    ['expires_at', 'Expires', 'time'],
    ['used_at', 'Used', 'time'],
  ],
  subscriptions: [
    ['plan', 'Plan', 'text'],
    ['status', 'Status', 'text'],
    ['cancel_at_period_end', 'Ends at the end of the period (auto-renewal off)', 'yesNo'],
    ['current_period_end', 'Current period ends', 'time'],
    ['unpaid', 'Renewal unpaid', 'yesNo'],
    ['provider', 'Payment provider', 'text'],
    ['provider_subscription_id', 'Subscription number at the payment provider', 'text'],
  ],
  open_checkouts: [
    ['provider', 'Payment provider', 'text'],
    ['created_at', 'Opened', 'time'],
    ['expires_at', 'Expires', 'time'],
  ],
  local_checkout_sessions: [
    ['status', 'Status', 'text'],
    ['created_at', 'Opened', 'time'],
  ],
  local_portal_sessions: [['expires_at', 'Expires', 'time']],
  charges: [
    ['paid_at', 'Paid', 'time'],
    ['amount', 'Amount', 'money'],
    ['description', 'Description', 'text'],
    ['provider', 'Payment provider', 'text'],
    ['payment_intent', 'Payment number at the payment provider', 'text'],
    ['provider_subscription_id', 'Subscription number at the payment provider', 'text'],
  ],
  provider_refunds: [
    ['refunded_at', 'Refunded', 'time'],
    ['amount', 'Amount', 'money'],
    ['id', 'Refund number at the payment provider', 'text'],
    ['payment_intent', 'Payment number at the payment provider', 'text'],
  ],
  disputes: [
    ['opened_at', 'Opened', 'time'],
    ['status', 'Status', 'text'],
    ['id', 'Dispute number at the payment provider', 'text'],
    ['charge_id', 'Charge number at the payment provider', 'text'],
    ['payment_intent', 'Payment number at the payment provider', 'text'],
  ],
  refunds: [
    ['owed_at', 'Owed', 'time'],
    ['amount', 'Amount', 'money'],
    ['reason', 'Reason', 'text'],
    ['state', 'State', 'text'],
    ['state_reason', 'Why it failed', 'text'],
    ['refunded_at', 'Refunded', 'time'],
    ['failed_at', 'Failed', 'time'],
    ['provider', 'Payment provider', 'text'],
    ['provider_subscription_id', 'Subscription number at the payment provider', 'text'],
    ['payment_intent', 'Payment number at the payment provider', 'text'],
    ['provider_refund_id', 'Refund number at the payment provider', 'text'],
  ],
  account_activity: [
    ['occurred_on', 'Day', 'day'],
    ['kind', 'What happened', 'text'],
    ['actor', 'By', 'text'],
    ['detail', 'Details', 'text'],
  ],
};

/** Columns kept for our own bookkeeping, said once (accountId) or meaning nothing to a person: left out of the copy, with why. */
export const INTERNAL_COLUMNS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  users: { id: 'the account number, given once at the top (accountId)', payment_customers_deleted: 'a counter that keeps a new payment-provider customer number unique' },
  sessions: { id: 'our number for the sign-in', user_id: 'the account number' },
  wireguard_keys: {
    id: 'our number for the configuration',
    user_id: 'the account number',
    session_id: 'the desktop sign-in a desktop app’s own key belongs to (listed above)',
    expires_at: 'when the VPN servers drop the key by themselves: the end of the paid period, given under the subscription',
    listed_until: 'the same, as the VPN servers were last told it',
  },
  handoff_tokens: { user_id: 'the account number', session_id: 'the sign-in that made the code' },
  subscriptions: { user_id: 'the account number', provider_updated_at: 'the payment provider’s clock of its last change, to apply changes in order', updated_at: 'when our copy last changed' },
  open_checkouts: { user_id: 'the account number' },
  local_checkout_sessions: { user_id: 'the account number' },
  local_portal_sessions: { user_id: 'the account number' },
  charges: { user_id: 'the account number', currency: 'given with the amount' },
  provider_refunds: { user_id: 'the account number', currency: 'given with the amount' },
  disputes: { user_id: 'the account number', provider_updated_at: 'the payment provider’s clock of its last change, to apply changes in order' },
  refunds: { id: 'our number for the refund', user_id: 'the account number', currency: 'given with the amount', notice_id: 'the kept address of a notice owed after deletion' },
  account_activity: { id: 'its order within a day', user_id: 'the account number' },
};

/** A time as ISO 8601 in UTC, whatever the driver gives (a Date, or a string). */
const isoTime = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string | Date).toISOString());
/** A day as YYYY-MM-DD: a `date` column (read as text), or a time cut to its UTC day. */
const isoDay = (value: unknown) => (value === null || value === undefined ? null : typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : new Date(value as string | Date).toISOString().slice(0, 10));
/** `date` columns, read as their text: a driver would make a local midnight of them. */
const DATE_COLUMNS = new Set(['occurred_on']);

/** "100.00 USD": an amount in the currency's smallest unit, with its minor digits and the currency's code. */
function moneyWithUnit(amount: unknown, currency: unknown): string | null {
  if (amount === null || amount === undefined || typeof currency !== 'string' || !currency) return null;
  const code = currency.toUpperCase();
  const digits = new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  return `${(Number(amount) / 10 ** digits).toFixed(digits)} ${code}`;
}

/** An activity entry's details in words: amounts with their currency, nothing internal. */
function activityDetail(detail: unknown): string | null {
  const { deviceName, action, amount, currency } = (detail ?? {}) as { deviceName?: string; action?: string; amount?: number; currency?: string };
  const said = [
    deviceName ? `device: ${deviceName}` : null,
    action ? `action: ${action.replace(/_/g, ' ')}` : null,
    moneyWithUnit(amount, currency) ? `amount: ${moneyWithUnit(amount, currency)}` : null,
  ].filter(Boolean);
  return said.length > 0 ? said.join('; ') : null;
}

/** One value as a person reads it, or null when there is nothing to say. */
function readableValue(table: string, column: string, shown: Shown, row: Record<string, unknown>): string | null {
  const value = row[column];
  if (table === 'account_activity') {
    if (column === 'detail') return activityDetail(value);
    if (column === 'kind') return String(value).replace(/_/g, ' ');
    if (column === 'actor') return value === 'support' ? 'Veil support' : 'you';
  }
  // A subscription without a plan of its own is on the one plan.
  if (table === 'subscriptions' && column === 'plan' && !value) return brandForServer.planName;
  if (value === null || value === undefined || value === '') return null;
  switch (shown) {
    case 'time':
      return isoTime(value);
    case 'day':
      return isoDay(value);
    case 'money':
      return moneyWithUnit(value, row.currency);
    case 'yesNo':
      return value ? 'yes' : 'no';
    case 'text':
      return String(value);
  }
}

/** One row as a person reads it: labelled, with units; empty values left out. */
function readableRow(table: string, row: Record<string, unknown>): Record<string, string> {
  const readable: Record<string, string> = {};
  for (const [column, label, shown] of READABLE_COLUMNS[table] ?? []) {
    const value = readableValue(table, column, shown, row);
    if (value !== null) readable[label] = value;
  }
  return readable;
}

/** The account's rows of `table`, without its secret columns, as a person reads them. */
async function rowsOf(db: Db, table: string, columns: readonly string[], userId: string): Promise<Array<Record<string, string>>> {
  const shown = columns.filter((column) => !(SECRET_COLUMNS[table] ?? []).includes(column));
  const result = await db.execute(
    sql`select ${sql.join(
      shown.map((column) => (DATE_COLUMNS.has(column) ? sql`${sql.identifier(column)}::text as ${sql.identifier(column)}` : sql.identifier(column))),
      sql`, `,
    )} from ${sql.identifier(table)} where ${sql.identifier(ownerColumn(table))} = ${userId}`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<Record<string, unknown>>;
  return rows.map((row) => readableRow(table, row));
}

/** Names an e-mail's kind as a person would ("renewal reminder"). */
const mailKind = (kind: string) => kind.replace(/_/g, ' ');

/** "1 payment", "2 payments". */
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The copy in a few sentences, at the top of the file and on the account page beside the download. */
function summaryOf(parts: AccountExport['parts'], emails: number, now: Date): string[] {
  const rows = (table: string) => parts.flatMap((part) => part.rows[table] ?? []);
  const [account] = rows('users');
  const subscription = rows('subscriptions')[0];
  const paid = rows('charges');
  const refunded = [...rows('refunds').filter((refund) => refund.State === 'made'), ...rows('provider_refunds')];
  const lines = [
    `Account: ${account?.['E-mail address'] ?? ''}, signed up ${account?.['Signed up']?.slice(0, 10) ?? ''}${account?.['Disabled by Veil support'] ? `, disabled by Veil support ${account['Disabled by Veil support'].slice(0, 10)}` : ''}.`,
    subscription
      ? `Subscription: ${subscription.Plan}, ${subscription.Status?.replace(/_/g, ' ')}${subscription['Current period ends'] ? `, current period ends ${subscription['Current period ends'].slice(0, 10)}` : ''}.`
      : 'Subscription: none.',
    `Payments: ${count(paid.length, 'payment')}${paid.length > 0 ? ` (${paid.map((charge) => `${charge.Amount} on ${charge.Paid?.slice(0, 10)}`).join(', ')})` : ''}; ${count(refunded.length, 'refund')}${refunded.length > 0 ? ` (${refunded.map((refund) => refund.Amount).join(', ')})` : ''}.`,
    `Devices: ${count(rows('sessions').filter((session) => !session['Signed out'] && (session.Expires ?? '') > now.toISOString()).length, 'sign-in')} in use, ${count(rows('wireguard_keys').length, 'WireGuard configuration')}.`,
    `Account activity: ${count(rows('account_activity').length, 'entry', 'entries')}; e-mails sent in the last 7 days: ${emails}.`,
    'Times are ISO 8601 in UTC; days are YYYY-MM-DD; amounts are in the currency named after them.',
  ];
  return lines;
}

/**
 * The copy for the account of `identity`: 401 `reauth_required` unless it signed in within 10 minutes.
 * `admit` runs once that is known (the one-per-10-minutes limit), before anything is read.
 */
export async function exportAccountData(
  db: Db,
  jobs: JobSender,
  identity: VerifiedIdentity,
  admit: (userId: string) => Promise<void>,
  now = new Date(),
): Promise<AccountExport> {
  if (!signedInRecently(identity, now)) throw failures.reauthRequired();
  const user = await accountOfIdentity(db, identity);
  await admit(user.id);
  const parts: AccountExport['parts'] = [];
  for (const entry of RETAINED_DATA) {
    const owned = Object.entries(entry.tables ?? {}).filter(([table, columns]) => columns.includes(ownerColumn(table)));
    if (owned.length === 0) continue;
    const rows: Record<string, Array<Record<string, string>>> = {};
    for (const [table, columns] of owned) rows[table] = await rowsOf(db, table, columns, user.id);
    parts.push({ key: entry.key, what: entry.what, why: entry.why, kept: entry.kept, onDeletion: entry.onDeletion, rows });
  }
  const emails = (await emailsSent(db, jobs, user.id)).map((email) => ({ kind: mailKind(email.kind), date: email.date }));
  return { exportedAt: now.toISOString(), accountId: user.id, summary: summaryOf(parts, emails.length, now), parts, emailsSent: emails };
}
