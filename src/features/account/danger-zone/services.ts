/** The Danger Zone card's services: deleting the account, then ending the session. */
import { fromPromise } from 'xstate';
import { accountDeletionMachine } from '../../../../machines/account-deletion';
import type { AccountUser, NavigateParams } from '../../../../machines/types';
import { api } from '../../../services/api-client';
import type { AppActors } from '../../../app/actors/app-actors';
import { signOutProvider } from '../../../app/flows/session-services';
import { currentSessionToken, toast, withSession } from '../session-calls';

export function provideAccountDeletion(actors: AppActors, navigate: (params: NavigateParams) => void) {
  return accountDeletionMachine.provide({
    actors: {
      deleteAccount: fromPromise<void, { user: AccountUser }>(async ({ input }) => {
        const sessionToken = currentSessionToken(actors);
        await withSession(actors, () =>
          api.deleteAccount({ email: input.user.email, userId: input.user.uid, sessionToken }),
        );
      }),
      // The account and its subscription are gone: asking the API would get a 401, which would end the
      // session as "expired" and send the customer to /signin. The refreshed state is known: none.
      refreshSubscription: fromPromise<void>(async () => {
        actors.session.send({ type: 'subscription.updated', subscription: null });
      }),
    },
    actions: {
      showToast: toast,
      navigate: (_, params: NavigateParams) => navigate(params),
      // The machine's last action, after it navigated to `/`: the session machine clears the stored session
      // on `session.ended`. The provider sign-out follows the event: Firebase reports it to the session as
      // `auth.changed`, which a signed-out session ignores.
      endSession: () => {
        actors.session.send({ type: 'session.ended' });
        void signOutProvider().catch(() => undefined);
      },
    },
  });
}
