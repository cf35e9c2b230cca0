import { shallowEqual, useSelector } from '@xstate/react';
import { ACCOUNT_CARDS } from '../../../../machines/account-cards';
import { AccountActivityCard } from '../../../screens/account-activity-card';
import { useCard } from '../use-card';
import { provideAccountActivity } from './services';

/** The Account activity card: what happened to the account, newest first (issue 30, item 6). */
export function AccountActivity() {
  const activity = useCard(provideAccountActivity, ACCOUNT_CARDS.activity, {});
  const shown = useSelector(
    activity,
    (state) => ({
      items: state.context.items,
      loading: state.hasTag('loading'),
      error: state.matches('failed') ? state.context.error : null,
      hasMore: state.context.nextCursor !== null,
      loadingMore: state.hasTag('loadingMore'),
      moreError: state.context.moreError,
    }),
    shallowEqual,
  );
  return (
    <AccountActivityCard {...shown} onReload={() => activity.send({ type: 'activity.reload' })} onShowMore={() => activity.send({ type: 'activity.more' })} />
  );
}
