/** The Billing history card's service: the account's charges and refunds (issue 20). */
import { fromPromise } from 'xstate';
import { billingHistoryMachine } from '../../../../machines/billing-history';
import { api } from '../../../services/api-client';
import type { AppActors } from '../../../app/actors/app-actors';
import { currentSessionToken, withSession } from '../session-calls';

export function provideBillingHistory(actors: AppActors) {
  return billingHistoryMachine.provide({
    actors: {
      loadBillingHistory: fromPromise(async () => {
        return withSession(actors, () => api.billingHistory(currentSessionToken(actors)));
      }),
    },
  });
}
