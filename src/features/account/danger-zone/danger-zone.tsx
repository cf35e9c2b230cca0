import { useCallback } from 'react';
import { useRouter } from '@tanstack/react-router';
import { shallowEqual, useSelector } from '@xstate/react';
import { ACCOUNT_CARDS } from '../../../../machines/account-cards';
import type { AppActors } from '../../../app/actors/app-actors';
import { useSessionUser, useSubscription } from '../../../app/hooks/use-session';
import { DangerZoneCard, DeleteAccountDialog } from '../../../screens/danger-zone-card';
import { useCard, useCardView } from '../use-card';
import { provideAccountDeletion } from './services';

/**
 * Danger Zone: Delete Account and its confirmation, which offers Cancel and Refund first inside the money-back
 * window (the billing history card's date), else turning off auto-renewal instead.
 */
export function DangerZone() {
  const router = useRouter();
  const user = useSessionUser()!;
  const subscription = useSubscription();
  const provide = useCallback(
    (actors: AppActors) => provideAccountDeletion(actors, ({ to }) => void router.navigate({ to })),
    [router],
  );
  const deletion = useCard(provide, ACCOUNT_CARDS.dangerZone, { user: { uid: user.uid, email: user.email } });
  const shown = useSelector(
    deletion,
    (state) => ({ dialogOpen: state.hasTag('dialogOpen'), deleting: state.hasTag('deleting') }),
    shallowEqual,
  );
  const refundableUntil = useCardView(deletion, ACCOUNT_CARDS.billingHistory, (state) => state.context.refundableUntil as string | null);
  return (
    <>
      <DangerZoneCard onDelete={() => deletion.send({ type: 'account.delete' })} />
      <DeleteAccountDialog
        subscription={subscription}
        {...shown}
        onConfirm={() => deletion.send({ type: 'account.confirmDelete' })}
        onCancel={() => deletion.send({ type: 'account.cancelDelete' })}
        onTurnOffInstead={() => deletion.send({ type: 'account.turnOffAutoRenewalInstead' })}
        refundableUntil={refundableUntil}
        onRefundInstead={() => deletion.send({ type: 'account.refundInstead' })}
      />
    </>
  );
}
