import { useState } from 'react';
import { shallowEqual, useSelector } from '@xstate/react';
import { ACCOUNT_CARDS } from '../../../../machines/account-cards';
import { useAppActors } from '../../../app/actors/app-context';
import { useSessionTag, useSessionUser, useSubscription } from '../../../app/hooks/use-session';
import { RefundDialog, ResumeAutoRenewalDialog, TurnOffAutoRenewalDialog } from '../../../screens/billing-dialogs';
import { PairingDialog } from '../../../screens/pairing-dialog';
import { SubscriptionCard } from '../../../screens/subscription-card';
import { useCard } from '../use-card';
import { openBillingPortal, provideAutoRenewal } from './services';
import { useVpnApp } from './vpn-app';

/**
 * The Subscription Status card: status, auto-renewal and its dialogs, refund, Open VPN App and the desktop app's
 * pairing, and "Update payment method" when a renewal failed.
 */
export function SubscriptionStatus() {
  const actors = useAppActors();
  const user = useSessionUser()!;
  const subscription = useSubscription();
  const sessionRefreshing = useSessionTag('refreshing');
  const renewal = useCard(provideAutoRenewal, ACCOUNT_CARDS.subscription, { user: { uid: user.uid, email: user.email } });
  const shown = useSelector(
    renewal,
    (state) => ({
      refreshing: state.hasTag('refreshing'),
      turnOffOpen: state.hasTag('dialogOpen'),
      cancelling: state.hasTag('cancelling'),
      resumeOpen: state.hasTag('resumeDialogOpen'),
      resuming: state.hasTag('resuming'),
      refundOpen: state.hasTag('refundDialogOpen'),
      refunding: state.hasTag('refunding'),
    }),
    shallowEqual,
  );
  const vpnApp = useVpnApp(actors);
  const [openingPaymentMethod, setOpeningPaymentMethod] = useState(false);
  const send = renewal.send;

  return (
    <>
      <PairingDialog opened={vpnApp.pairing.pending} email={user.email} onConfirm={vpnApp.pairing.confirm} onDismiss={vpnApp.pairing.dismiss} />
      <SubscriptionCard
        subscription={subscription}
        refreshing={sessionRefreshing || shown.refreshing}
        onRefresh={() => send({ type: 'subscription.refresh' })}
        onOpenVpnApp={vpnApp.open}
        vpnAppPhase={vpnApp.phase}
        onTurnOff={() => send({ type: 'autoRenewal.turnOff' })}
        onReEnable={() => send({ type: 'autoRenewal.reEnable' })}
        openingPaymentMethod={openingPaymentMethod}
        onUpdatePaymentMethod={() => {
          setOpeningPaymentMethod(true);
          void openBillingPortal(actors).finally(() => setOpeningPaymentMethod(false));
        }}
      />
      <TurnOffAutoRenewalDialog
        opened={shown.turnOffOpen}
        busy={shown.cancelling}
        endDate={subscription?.endDate}
        onConfirm={() => send({ type: 'autoRenewal.confirm' })}
        onDismiss={() => send({ type: 'autoRenewal.dismiss' })}
      />
      <ResumeAutoRenewalDialog
        opened={shown.resumeOpen}
        busy={shown.resuming}
        endDate={subscription?.endDate}
        onConfirm={() => send({ type: 'autoRenewal.confirm' })}
        onDismiss={() => send({ type: 'autoRenewal.dismiss' })}
      />
      <RefundDialog
        opened={shown.refundOpen}
        busy={shown.refunding}
        onConfirm={() => send({ type: 'refund.confirm' })}
        onDismiss={() => send({ type: 'refund.dismiss' })}
      />
    </>
  );
}
