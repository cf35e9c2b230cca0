/** The Account activity card's service: the account's own history (issue 30, item 6). */
import { fromPromise } from 'xstate';
import { accountActivityMachine } from '../../../../machines/account-activity';
import { api } from '../../../services/api-client';
import type { AppActors } from '../../../app/actors/app-actors';
import { currentSessionToken, withSession } from '../session-calls';

export function provideAccountActivity(actors: AppActors) {
  return accountActivityMachine.provide({
    actors: {
      loadActivity: fromPromise(async ({ input }: { input: { cursor: string | null } }) =>
        withSession(actors, () => api.accountActivity(currentSessionToken(actors), input.cursor)),
      ),
    },
  });
}
