/** The staff console's machines with their browser implementations (issue 30, item 7). */
import { fromPromise } from 'xstate';
import { STAFF_ROLES, type StaffRole } from '../../../contract/staff';
import { staffActionMachine } from '../../../machines/staff-action';
import { staffSearchMachine } from '../../../machines/staff-search';
import { serverStatusMachine, type ServerStatusReading } from '../../../machines/server-status';
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

/**
 * The console's server table: the public status plus each server's applied peer-list version (POST
 * /api/staff/servers), drawn by the same board.
 */
export function provideStaffServerStatus() {
  return serverStatusMachine.provide({
    actors: {
      fetchServerStatus: fromPromise<ServerStatusReading>(async () => {
        const answer = await staffApi.servers(await freshToken());
        const servers = answer.servers.map((server) => ({ ...server, listVersion: answer.version }));
        return { status: { servers, updatedAt: new Date().toISOString() }, receivedAt: Date.now() };
      }),
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
