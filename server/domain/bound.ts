/**
 * The domain functions routes call, bound to the database (issue 24: routes get domain functions, not
 * the database handle). buildApp makes one with `bindDomain` and hands it to the routes in AppDeps, so a
 * route can call the domain but cannot reach `db` or run SQL of its own.
 */
import { accountActivityOf } from './privacy/account-activity.ts';
import { billingHistory, localReceipt } from './billing/billing-history.ts';
import { exportAccountData } from './privacy/data-export.ts';
import { openBillingPortal } from './billing/billing-portal.ts';
import { openCheckoutFor } from './billing/checkouts.ts';
import { deleteAccount } from './privacy/deletion.ts';
import { createHandoffFor, redeemHandoffForDevice } from './accounts/handoff.ts';
import { claimMoneyBack } from './billing/money-back.ts';
import { auditLook, customerView, performStaffAction, searchCustomers } from './staff.ts';
import { prepareSessionCheck } from './accounts/session-check.ts';
import { authenticate, listDevices, revokeDevice, revokeSession, signIn } from './accounts/sessions.ts';
import type { JobSender } from './jobs.ts';
import type { Database, Db } from './store.ts';
import { turnOffRenewal, turnOnRenewal } from './billing/subscriptions.ts';
import { fullPeerList, peerChangesSince, preparePoll } from './devices/relay-peers.ts';
import { confirmVersion, currentPeerVersion, recordHealth, relayServerStates, uptimeDays } from './devices/relay-servers.ts';
import { registerKey, rotateKey } from './devices/wireguard-devices.ts';

export function bindDomain(database: Database, jobs: JobSender) {
  const { db } = database;
  const bound =
    <Args extends unknown[], Result>(call: (db: Db, ...args: Args) => Result) =>
    (...args: Args): Result =>
      call(db, ...args);
  return {
    sessions: {
      signIn: bound(signIn),
      /** POST /auth/verify's batched check (server/domain/accounts/session-check.ts). */
      check: prepareSessionCheck(database),
      authenticate: bound(authenticate),
      signOut: bound(revokeSession),
      createHandoff: bound(createHandoffFor),
      redeemHandoff: bound(redeemHandoffForDevice),
      listDevices: bound(listDevices),
      revokeDevice: bound(revokeDevice),
      deleteAccount: bound(deleteAccount),
    },
    subscriptions: {
      openCheckout: bound(openCheckoutFor),
      turnOffRenewal: bound(turnOffRenewal),
      turnOnRenewal: bound(turnOnRenewal),
      claimMoneyBack: bound(claimMoneyBack),
    },
    vpn: {
      registerKey: bound(registerKey),
      rotateKey: bound(rotateKey),
    },
    relay: {
      preparePoll: bound(preparePoll),
      fullPeerList: bound(fullPeerList),
      peerChangesSince: bound(peerChangesSince),
      confirmVersion: bound(confirmVersion),
      recordHealth: bound(recordHealth),
      serverStates: bound(relayServerStates),
      uptimeDays: bound(uptimeDays),
      currentVersion: bound(currentPeerVersion),
    },
    account: {
      activity: bound(accountActivityOf),
      /** The customer's copy of their data (server/domain/privacy/data-export.ts). */
      exportData: (identity: Parameters<typeof exportAccountData>[2], admit: (userId: string) => Promise<void>) =>
        exportAccountData(db, jobs, identity, admit),
    },
    staff: {
      search: bound(searchCustomers),
      customer: (userId: string, localReceiptUrl: (chargeId: string) => string, billingNow: Date) => customerView(db, jobs, userId, localReceiptUrl, billingNow),
      act: bound(performStaffAction),
      auditLook: bound(auditLook),
    },
    billing: {
      history: bound(billingHistory),
      receipt: bound(localReceipt),
      openPortal: bound(openBillingPortal),
    },
  };
}

/** What routes may do with the database: exactly these calls. */
export type DomainCalls = ReturnType<typeof bindDomain>;
