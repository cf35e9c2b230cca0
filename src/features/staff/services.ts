/** The staff console's machines with their browser implementations (issue 30, item 7). */
import { fromPromise } from 'xstate';
import { STAFF_ROLES, type StaffRole } from '../../../contract/staff';
import { staffActionMachine } from '../../../machines/staff-action';
import { staffSearchMachine } from '../../../machines/staff-search';
import { getClientConfig } from '../../app/flows/session-services';
import { currentStaffToken } from '../../services/firebase-auth';
import { showToast } from '../../services/toasts';
import { staffApi } from '../../services/staff-api';

/** A fresh ID token of the signed-in staff member. */
async function freshToken(): Promise<string> {
  const token = await currentStaffToken(getClientConfig());
  if (!token) throw new Error('Please sign in again.');
  return token.idToken;
}

export function provideStaffSearch() {
  return staffSearchMachine.provide({
    actors: {
      loadRole: fromPromise(async () => {
        const token = await currentStaffToken(getClientConfig());
        const role = token?.role;
        return (STAFF_ROLES as readonly unknown[]).includes(role) ? (role as StaffRole) : null;
      }),
      searchCustomers: fromPromise(async ({ input }) => staffApi.search(await freshToken(), input.query)),
      loadCustomer: fromPromise(async ({ input }) => staffApi.customer(await freshToken(), input.userId)),
    },
  });
}

const DONE_TEXTS = {
  resend_receipt: 'The receipt was sent again.',
  revoke_device: 'The device was signed out.',
  refund: 'The refund was made; the subscription has ended.',
  disable: 'The account was disabled and signed out everywhere.',
  enable: 'The account was enabled.',
  delete: 'The account was deleted.',
} as const;

/** One action's machine; `onDone` reloads the customer page. */
export function provideStaffAction(onDone: () => void) {
  return staffActionMachine.provide({
    actors: {
      performAction: fromPromise(async ({ input }) => {
        await staffApi.act(await freshToken(), {
          userId: input.userId,
          action: input.action,
          reason: input.reason,
          ...(input.deviceId ? { deviceId: input.deviceId } : {}),
        });
      }),
    },
    actions: {
      actionDone: ({ context }) => {
        void showToast({ title: 'Done', message: DONE_TEXTS[context.action], color: 'green' });
        onDone();
      },
    },
  });
}
