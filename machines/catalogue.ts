/**
 * Every machine of the product, once. The statecharts (scripts/docs-flows.ts), the generated path tests and
 * their 100% coverage gate (tests/machines/graph-runs.ts) all read this list, and a test fails when a file
 * in machines/ defines a machine that is not in it (tests/machines/catalogue.test.ts). The SPA does not
 * import it: each route imports the one machine it runs.
 */
import type { AnyStateMachine } from 'xstate';
import { accountActivityMachine } from './account-activity';
import { dataExportMachine } from './data-export';
import { accountDeletionMachine } from './account-deletion';
import { activationMachine } from './activation';
import { appLinkMachine } from './app-link';
import { autoRenewalMachine } from './auto-renewal';
import { billingHistoryMachine } from './billing-history';
import { checkoutMachine } from './checkout';
import { deepLinkMachine } from './deep-link';
import { addDeviceMachine } from './add-device';
import { devicesMachine } from './devices';
import { removalConfirmationMachine } from './removal-confirmation';
import { serverStatusMachine } from './server-status';
import { sessionMachine } from './session';
import { signInMachine } from './sign-in';
import { staffActionMachine } from './staff-action';
import { staffSearchMachine } from './staff-search';

export interface CataloguedMachine {
  /** Its file in machines/ and docs/flows/, without extension. */
  name: string;
  title: string;
  machine: AnyStateMachine;
}

export const MACHINES = [
  { name: 'session', title: 'Session (app)', machine: sessionMachine },
  { name: 'sign-in', title: 'Sign-in', machine: signInMachine },
  { name: 'deep-link', title: 'Deep-link decision', machine: deepLinkMachine },
  { name: 'checkout', title: 'Checkout', machine: checkoutMachine },
  { name: 'auto-renewal', title: 'Subscription / auto-renewal', machine: autoRenewalMachine },
  { name: 'account-deletion', title: 'Account deletion', machine: accountDeletionMachine },
  { name: 'activation', title: 'Payment activation', machine: activationMachine },
  { name: 'devices', title: 'Devices', machine: devicesMachine },
  { name: 'add-device', title: 'Add a device (WireGuard)', machine: addDeviceMachine },
  { name: 'removal-confirmation', title: 'A removal confirmed by every server', machine: removalConfirmationMachine },
  { name: 'app-link', title: 'Opening the app (hand-off told)', machine: appLinkMachine },
  { name: 'billing-history', title: 'Billing history', machine: billingHistoryMachine },
  { name: 'account-activity', title: 'Account activity', machine: accountActivityMachine },
  { name: 'staff-search', title: 'Staff console: search and customer', machine: staffSearchMachine },
  { name: 'staff-action', title: 'Staff console: confirm, then act', machine: staffActionMachine },
  { name: 'data-export', title: 'Download your data', machine: dataExportMachine },
  { name: 'server-status', title: 'Server status (/status)', machine: serverStatusMachine },
] as const satisfies readonly CataloguedMachine[];

export type MachineName = (typeof MACHINES)[number]['name'];
