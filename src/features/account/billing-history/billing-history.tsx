import { shallowEqual, useSelector } from '@xstate/react';
import { ACCOUNT_CARDS } from '../../../../machines/account-cards';
import { useSessionView } from '../../../app/hooks/use-session';
import { BillingHistoryCard } from '../../../screens/billing-history-card';
import { useCard } from '../use-card';
import { provideBillingHistory } from './services';

/**
 * The Billing history card. "Cancel and refund" is the subscription card's to confirm and make: this card's
 * machine asks it (machines/billing-history.ts).
 */
export function BillingHistory() {
  const history = useCard(provideBillingHistory, ACCOUNT_CARDS.billingHistory, {});
  const shown = useSelector(
    history,
    (state) => ({
      items: state.context.items,
      loading: state.hasTag('loading'),
      error: state.matches('failed') ? state.context.error : null,
      refundableUntil: state.context.refundableUntil,
    }),
    shallowEqual,
  );
  const status = useSessionView((view) => view.context.subscription?.status);
  return (
    <BillingHistoryCard
      items={shown.items}
      loading={shown.loading}
      error={shown.error}
      onReload={() => history.send({ type: 'billingHistory.reload' })}
      refundableUntil={status === 'active' ? shown.refundableUntil : null}
      onRefund={() => history.send({ type: 'billingHistory.refund' })}
    />
  );
}

