/**
 * Support's view and actions (issue 30; design 7d). The caller is a staff member whose role came from a
 * verified token's claim (server/http/staff-routes.ts); the feature-to-role table (contract/staff.ts) is
 * checked here again for actions, so that a refusal is audited like any other outcome.
 *
 * The audit trail: every action, done, refused or failed, is one `staff_actions` row. A done action's row
 * is written in the transaction of its change (both commit or neither); a refused or failed one in its
 * own, once the change has rolled back. The target account is named by the SHA-256 of its id only.
 */
import { and, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { ActivityDetail } from '../../contract/account-activity.ts';
import type { StaffActionRecord, StaffCustomer, StaffCustomerSummary } from '../../contract/api.ts';
import { mayUse, STAFF_ACTIONS, type StaffActionName, type StaffRole } from '../../contract/staff.ts';
import type { Db } from '../db/database.ts';
import { charges, sessions, staffActions, users, wireguardKeys } from '../db/schema.ts';
import { accountActivityOf, recordActivity } from './privacy/account-activity.ts';
import { billingHistory } from './billing/billing-history.ts';
import { oweReceiptAgain } from './billing/charges.ts';
import { deleteAccountOf } from './privacy/deletion.ts';
import { oweCustomerMessage } from './customer-messages.ts';
import { ApiFailure, failures } from './errors.ts';
import type { IdentityAdmin } from './accounts/identity-admin.ts';
import type { JobSender } from './jobs.ts';
import { refundNow } from './billing/money-back.ts';
import { accountAccess, removeSessionKeysOf, syncPeerAccess } from './devices/peer-access.ts';
import type { PaymentProvider } from './billing/payment-provider.ts';
import { endDesktopSession } from './accounts/sessions.ts';
import { findSubscription, recordRenewalTurnedOff, toApiSubscription, turnOffRenewalAtProvider, type RenewalTurnedOff } from './billing/subscriptions.ts';
import { sha256 } from './tokens.ts';
import { deviceKindOf, endKeyDevice } from './devices/wireguard-devices.ts';
import { desktopName } from './devices/device-names.ts';
import { emailsSent } from './customer-messages.ts';

/** A staff member as their verified token names them. */
export interface StaffMember {
  uid: string;
  email: string;
  role: StaffRole;
}

export interface StaffActionRequest {
  userId: string;
  action: StaffActionName;
  reason: string;
  deviceId?: string | undefined;
}

/** What actions need beyond the database. */
export interface StaffPorts {
  payments: PaymentProvider;
  jobs: JobSender;
  identityAdmin: IdentityAdmin;
  /** The billing clock's time: the money-back window and what is live are judged by it (issue 34). */
  billingNow: Date;
}

const MAX_RESULTS = 20;

/** Escapes LIKE's wildcards in what a person typed. */
const literal = (value: string) => value.replace(/[\\%_]/g, (character) => `\\${character}`);

/** Customers by e-mail prefix, account id, payment customer id or receipt number: at most 20. */
export async function searchCustomers(db: Db, query: string, billingNow: Date): Promise<StaffCustomerSummary[]> {
  const byReceipt = db.select({ userId: charges.userId }).from(charges).where(eq(charges.id, query));
  const rows = await db
    .select()
    .from(users)
    .where(
      or(
        ilike(users.email, `${literal(query)}%`),
        eq(users.id, query),
        eq(users.paymentCustomerId, query),
        sql`${users.id} in (${byReceipt})`,
      ),
    )
    .orderBy(users.email)
    .limit(MAX_RESULTS);
  return Promise.all(
    rows.map(async (user) => ({
      id: user.id,
      email: user.email,
      name: user.name,
      status: user.disabledAt ? 'disabled' : (toApiSubscription(await findSubscription(db, user.id), billingNow)?.status ?? 'none'),
      createdAt: user.createdAt.toISOString(),
    })),
  );
}

/**
 * Everything support sees of one customer; 404 for an unknown (or deleted) account. Its subscription and
 * billing by the billing clock (`billingNow`), its devices by real time (`now`).
 */
export async function customerView(
  db: Db,
  jobs: JobSender,
  userId: string,
  localReceiptUrl: (chargeId: string) => string,
  billingNow: Date,
  now = new Date(),
): Promise<StaffCustomer> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw failures.notFound('Customer');
  const devices = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.kind, 'desktop'), isNull(sessions.revokedAt), sql`${sessions.expiresAt} > ${now}`))
    .orderBy(sessions.createdAt);
  // WireGuard keys that are devices of their own (a desktop session's key is that session's).
  const keys = await db
    .select()
    .from(wireguardKeys)
    .where(and(eq(wireguardKeys.userId, userId), isNull(wireguardKeys.sessionId)))
    .orderBy(wireguardKeys.createdAt);
  const { items, refundableUntil } = await billingHistory(db, userId, localReceiptUrl, billingNow);
  return {
    profile: {
      id: user.id,
      email: user.email,
      name: user.name,
      provider: user.provider,
      createdAt: user.createdAt.toISOString(),
      disabled: user.disabledAt !== null,
      paymentCustomerId: user.paymentCustomerId,
    },
    subscription: toApiSubscription(await findSubscription(db, userId), billingNow),
    billing: items,
    refundableUntil: refundableUntil ?? null,
    devices: [
      ...devices.map((device) => ({
        id: device.id,
        name: desktopName(device.deviceName),
        kind: 'desktop' as const,
        createdAt: device.createdAt.toISOString(),
        lastUsedOn: device.lastUsedAt.toISOString().slice(0, 10),
      })),
      // No last-used day: the relays report no handshakes (zero-log).
      ...keys.map((key) => ({ id: key.id, name: key.name, kind: 'wireguard' as const, createdAt: key.createdAt.toISOString(), lastUsedOn: null })),
    ],
    emails: await emailsSent(db, jobs, userId),
    actions: await actionsOn(db, userId),
    // By the rule the peer list follows (peer-access.ts), not a second reading of the subscription.
    access: (await accountAccess(db, userId, billingNow, now)).access,
    // The newest 100, as the customer's own list held before it was paged (issue 45, T25).
    activity: (await accountActivityOf(db, userId, { limit: 100 })).items,
  };
}

/**
 * Staff looks are audited like actions (issue 46, item 11): who looked, when, and at what: a search's text
 * (in `params.query`, with no target) or the customer viewed (by the hash of its id). Written before the
 * answer is read, so a look whose row could not be written shows nothing.
 */
export async function auditLook(db: Db, staff: StaffMember, look: { action: 'search'; query: string } | { action: 'view_customer'; userId: string }): Promise<void> {
  await db.insert(staffActions).values({
    staffUid: staff.uid,
    staffEmail: staff.email,
    role: staff.role,
    action: look.action,
    targetHash: look.action === 'view_customer' ? sha256(look.userId) : '',
    reason: '',
    params: look.action === 'search' ? { query: look.query } : {},
    outcome: 'done',
  });
}

/** The audit rows of actions on an account (found by its hash), newest first; looks are not actions. */
async function actionsOn(db: Db, userId: string): Promise<StaffActionRecord[]> {
  const rows = await db
    .select()
    .from(staffActions)
    .where(and(eq(staffActions.targetHash, sha256(userId)), inArray(staffActions.action, [...STAFF_ACTIONS])))
    .orderBy(desc(staffActions.id))
    .limit(100);
  return rows.map((row) => ({
    id: String(row.id),
    at: row.occurredAt.toISOString(),
    staffEmail: row.staffEmail,
    role: row.role,
    action: row.action as StaffActionName,
    reason: row.reason,
    outcome: row.outcome,
  }));
}

type Outcome = 'done' | 'refused' | 'failed';

function audit(tx: Db, staff: StaffMember, request: StaffActionRequest, outcome: Outcome, outcomeCode: string | null = null, said: Record<string, string> = {}) {
  return tx.insert(staffActions).values({
    staffUid: staff.uid,
    staffEmail: staff.email,
    role: staff.role,
    action: request.action,
    targetHash: sha256(request.userId),
    reason: request.reason,
    // Parameters without secrets: the device id is no credential.
    params: { ...(request.deviceId ? { deviceId: request.deviceId } : {}), ...said },
    outcome,
    outcomeCode,
  });
}

/**
 * Carries out one staff action with its audit row. A role the table does not allow, or an action the
 * rules refuse (a 4xx), is audited `refused`; a fault (a provider or database failure) `failed`; the
 * failure is then thrown for the route to answer.
 */
export async function performStaffAction(db: Db, ports: StaffPorts, staff: StaffMember, request: StaffActionRequest): Promise<void> {
  if (!mayUse(staff.role, request.action)) {
    await audit(db, staff, request, 'refused', 'staff_forbidden');
    throw failures.staffForbidden();
  }
  try {
    await carryOut(db, ports, staff, request);
  } catch (error) {
    const refused = error instanceof ApiFailure && error.statusCode < 500;
    await audit(db, staff, request, refused ? 'refused' : 'failed', error instanceof ApiFailure ? error.code : 'internal_error');
    throw error;
  }
}

async function carryOut(db: Db, ports: StaffPorts, staff: StaffMember, request: StaffActionRequest): Promise<void> {
  const [user] = await db.select().from(users).where(eq(users.id, request.userId));
  if (!user) throw failures.notFound('Customer');

  if (request.action === 'delete') {
    // The customer's own deletion, with the audit row in its transaction; the activity goes with the account.
    await deleteAccountOf(db, ports.payments, ports.jobs, user, (tx) => audit(tx, staff, request, 'done').then(() => undefined));
    return;
  }
  // Disabling turns auto-renewal off first, at the provider, outside the transaction (issue 46, item 10).
  const renewalsOff = request.action === 'disable' ? await turnOffRenewalAtProvider(db, ports.payments, user.id, ports.billingNow) : [];
  await db.transaction(async (tx) => {
    // One action on an account at a time: a second waits and sees the first one's outcome.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
    // What the customer's activity says besides "Veil support" and the action.
    let detail: ActivityDetail = {};
    // What the audit row says the action did besides itself.
    let said: Record<string, string> = {};
    switch (request.action) {
      case 'resend_receipt':
        if (!(await oweReceiptAgain(tx, ports.jobs, user.id, new Date().toISOString()))) throw failures.notFound('Receipt');
        break;
      case 'revoke_device': {
        // A desktop app session (its own key goes with it) or a WireGuard device: either leaves the relays' peer list here.
        const deviceId = request.deviceId ?? '';
        const kind = await deviceKindOf(tx, user.id, deviceId);
        detail = { deviceName: kind === 'wireguard' ? await endKeyDevice(tx, user.id, deviceId) : await endDesktopSession(tx, user.id, deviceId) };
        break;
      }
      case 'refund':
        // Inside the money-back window as the customer could; outside it (admin only, by the table) the latest payment.
        detail = await refundNow(tx, ports.jobs, user.id, { by: 'support', outsideWindow: true }, ports.billingNow);
        break;
      case 'disable':
        await disable(tx, ports, user, renewalsOff);
        said = { autoRenewal: renewalsOff.length > 0 ? 'turned_off' : 'was_not_on' };
        break;
      case 'enable':
        await tx.update(users).set({ disabledAt: null }).where(eq(users.id, user.id));
        // Its WireGuard keys connect again while its subscription gives access (issue 29).
        await syncPeerAccess(tx, user.id, ports.billingNow);
        await ports.identityAdmin.enable(user.identitySubject);
        break;
    }
    await audit(tx, staff, request, 'done', null, said);
    await recordActivity(tx, { userId: user.id, kind: 'staff_action', by: 'support', detail: { action: request.action, ...detail } });
  });
}

/**
 * Off everywhere (item 5): the account is marked disabled (sign-in refused, read by the relay list and by
 * every session check, so a session written by a sign-in racing this one works for nothing), every web and
 * desktop session ends, the customer is e-mailed what happened (issue 45, T13) (their hand-off links die with them), auto-renewal is stored off as the provider
 * answered (`renewalsOff`, issue 46, item 10), and the identity provider disables the user and revokes its
 * refresh tokens, last, so that its failure rolls the rest back.
 */
async function disable(tx: Db, ports: StaffPorts, user: { id: string; identitySubject: string }, renewalsOff: RenewalTurnedOff[], now = new Date()): Promise<void> {
  const { identityAdmin, billingNow } = ports;
  await tx.update(users).set({ disabledAt: now }).where(eq(users.id, user.id));
  await tx.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
  // Off the VPN too (issue 29): the desktop sessions' own keys go with them, the account's other keys leave the peer list.
  await removeSessionKeysOf(tx, user.id, now);
  await syncPeerAccess(tx, user.id, billingNow, now);
  await recordRenewalTurnedOff(tx, ports.jobs, user.id, renewalsOff);
  // The customer is told (issue 45, T13): what stopped, and how to reach support. Each disable is its own notice.
  await oweCustomerMessage(
    tx,
    ports.jobs,
    { userId: user.id, kind: 'account_disabled', disabledAt: now.toISOString(), renewalTurnedOff: renewalsOff.some(({ answer }) => answer.cancelAtPeriodEnd) },
    `${user.id}:${now.toISOString()}`,
  );
  await identityAdmin.disable(user.identitySubject);
}
