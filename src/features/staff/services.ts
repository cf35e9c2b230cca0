/** The staff console's machines with their browser implementations (issue 30, item 7). */
import { fromPromise, type ActorRefFrom } from 'xstate';
import { isStaffRole } from '../../../contract/staff';
import { staffActionMachine } from '../../../machines/staff-action';
import { SIGN_IN_AGAIN, staffSearchMachine } from '../../../machines/staff-search';
import { serverStatusMachine, type ServerStatusReading } from '../../../machines/server-status';
import { getClientConfig } from '../../app/flows/session-services';
import { currentStaffToken } from '../../services/firebase-auth';
import { showToast } from '../../services/toasts';
import { staffApi } from '../../services/staff-api';

/** The search actor's id in the app's system: the action machine tells it to reload the customer. */
export const STAFF_SEARCH_ID = 'staff.search';
export type StaffSearchActor = ActorRefFrom<typeof staffSearchMachine>;
export type StaffActionActor = ActorRefFrom<typeof staffActionMachine>;

/** A fresh ID token of the signed-in staff member. */
async function freshToken(): Promise<string> {
  const token = await currentStaffToken(getClientConfig());
  if (!token) throw new Error('Please sign in again.');
  return token.idToken;
}

/**
 * The role from a freshly refreshed token. No provider user, or a refresh the provider refuses (a role just
 * granted revokes the old sign-in), asks for the sign-in again (issue 45 T12).
 */
async function loadRole() {
  const token = await currentStaffToken(getClientConfig()).catch(() => null);
  if (!token) throw Object.assign(new Error('Please sign in again.'), { code: SIGN_IN_AGAIN });
  return isStaffRole(token.role) ? token.role : null;
}

export const staffSearch = staffSearchMachine.provide({
  actors: {
    loadRole: fromPromise(loadRole),
    searchCustomers: fromPromise(async ({ input }) => staffApi.search(await freshToken(), input.query)),
    loadCustomer: fromPromise(async ({ input }) => staffApi.customer(await freshToken(), input.userId)),
  },
});

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

/** The one action machine (every action): done, it says so and has the search actor reload the customer. */
export const staffAction = staffActionMachine.provide({
  actors: {
    performAction: fromPromise(async ({ input }) => {
      if (!input.action) throw new Error('No action was started.');
      await staffApi.act(await freshToken(), {
        userId: input.userId,
        action: input.action,
        reason: input.reason,
        ...(input.deviceId ? { deviceId: input.deviceId } : {}),
      });
    }),
  },
  actions: {
    actionDone: ({ context, system }) => {
      if (context.action) void showToast({ title: 'Done', message: DONE_TEXTS[context.action], color: 'green' });
      (system.get(STAFF_SEARCH_ID) as StaffSearchActor | undefined)?.send({ type: 'customer.reload' });
    },
  },
});
