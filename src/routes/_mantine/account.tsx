import { createFileRoute, useRouter } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  openBillingPortal,
  openVpnApp,
  provideAccountDeletion,
  provideAutoRenewal,
  provideBillingHistory,
  provideDevices,
} from '../../app/account-services';
import { useAppActors } from '../../app/app-context';
import { guardRoute } from '../../app/guards';
import { useSessionTag, useSessionUser, useSubscription } from '../../app/use-session';
import { PageSpinner } from '../../components/page-spinner';
import { AccountPage, SignInRequired } from '../../screens/account-page';
import { BillingHistoryCard } from '../../screens/billing-history-card';
import { RefundDialog, ResumeAutoRenewalDialog } from '../../screens/billing-dialogs';
import { DevicesCard } from '../../screens/devices-card';
import { PastDueNotice } from '../../screens/past-due-notice';

export const Route = createFileRoute('/_mantine/account')({
  beforeLoad: (options) => guardRoute(options),
  pendingComponent: () => <PageSpinner />,
  component: AccountRoute,
});

function AccountRoute() {
  const user = useSessionUser();
  const loading = useSessionTag('loading');
  if (loading) return <PageSpinner />;
  // The session ended while the page was open (e.g. another tab signed out): design §5.
  if (!user) return <SignInRequired />;
  return <SignedInAccount />;
}

function SignedInAccount() {
  const actors = useAppActors();
  const router = useRouter();
  const user = useSessionUser()!;
  const subscription = useSubscription();
  const sessionRefreshing = useSessionTag('refreshing');
  const signingOut = useSessionTag('signingOut');
  const accountUser = { uid: user.uid, email: user.email };

  const autoRenewalMachine = useMemo(() => provideAutoRenewal(actors), [actors]);
  const deletionMachine = useMemo(
    () => provideAccountDeletion(actors, ({ to }) => void router.navigate({ to })),
    [actors, router],
  );
  const [renewal, sendRenewal] = useMachine(autoRenewalMachine, { input: { user: accountUser }, inspect: actors.inspect });
  const [deletion, sendDeletion] = useMachine(deletionMachine, { input: { user: accountUser }, inspect: actors.inspect });
  const devicesMachine = useMemo(() => provideDevices(actors), [actors]);
  const [devices, sendDevices] = useMachine(devicesMachine, { input: {}, inspect: actors.inspect });
  const billingMachine = useMemo(() => provideBillingHistory(actors), [actors]);
  const [billing, sendBilling] = useMachine(billingMachine, { input: {}, inspect: actors.inspect });
  // A refund adds an item and closes the guarantee: the history is read again once the card has refreshed.
  const refunding = renewal.hasTag('refunding');
  const [openingPortal, setOpeningPortal] = useState(false);
  const wasRefunding = useRef(false);
  useEffect(() => {
    if (wasRefunding.current && !refunding) sendBilling({ type: 'billingHistory.reload' });
    wasRefunding.current = refunding;
  }, [refunding, sendBilling]);

  return (
    <AccountPage
      user={user}
      subscription={subscription}
      refreshing={sessionRefreshing || renewal.hasTag('refreshing')}
      signingOut={signingOut}
      onSignOut={() => actors.session.send({ type: 'session.signOut' })}
      onRefresh={() => sendRenewal({ type: 'subscription.refresh' })}
      onOpenVpnApp={() => void openVpnApp(actors)}
      devices={
        <DevicesCard
          devices={devices.context.devices}
          loading={devices.hasTag('loading')}
          error={devices.matches('failed') ? devices.context.error : null}
          revokingId={devices.context.revoking}
          onRevoke={(deviceId) => sendDevices({ type: 'devices.revoke', deviceId })}
          onReload={() => sendDevices({ type: 'devices.reload' })}
        />
      }
      billing={
        <>
          {subscription?.status === 'past_due' && (
            <PastDueNotice
              opening={openingPortal}
              onUpdatePaymentMethod={() => {
                setOpeningPortal(true);
                void openBillingPortal(actors).finally(() => setOpeningPortal(false));
              }}
            />
          )}
          <BillingHistoryCard
            items={billing.context.items}
            loading={billing.hasTag('loading')}
            error={billing.matches('failed') ? billing.context.error : null}
            onReload={() => sendBilling({ type: 'billingHistory.reload' })}
            refundableUntil={subscription?.status === 'active' ? billing.context.refundableUntil : null}
            onRefund={() => sendRenewal({ type: 'refund.start' })}
          />
          <ResumeAutoRenewalDialog
            opened={renewal.hasTag('resumeDialogOpen')}
            busy={renewal.hasTag('resuming')}
            endDate={subscription?.endDate}
            onConfirm={() => sendRenewal({ type: 'autoRenewal.confirm' })}
            onDismiss={() => sendRenewal({ type: 'autoRenewal.dismiss' })}
          />
          <RefundDialog
            opened={renewal.hasTag('refundDialogOpen')}
            busy={refunding}
            onConfirm={() => sendRenewal({ type: 'refund.confirm' })}
            onDismiss={() => sendRenewal({ type: 'refund.dismiss' })}
          />
        </>
      }
      autoRenewal={{
        dialogOpen: renewal.hasTag('dialogOpen'),
        cancelling: renewal.hasTag('cancelling'),
        onTurnOff: () => sendRenewal({ type: 'autoRenewal.turnOff' }),
        onConfirm: () => sendRenewal({ type: 'autoRenewal.confirm' }),
        onDismiss: () => sendRenewal({ type: 'autoRenewal.dismiss' }),
        onReEnable: () => sendRenewal({ type: 'autoRenewal.reEnable' }),
      }}
      deletion={{
        dialogOpen: deletion.hasTag('dialogOpen'),
        deleting: deletion.hasTag('deleting'),
        onDelete: () => sendDeletion({ type: 'account.delete' }),
        onConfirm: () => sendDeletion({ type: 'account.confirmDelete' }),
        onCancel: () => sendDeletion({ type: 'account.cancelDelete' }),
      }}
    />
  );
}
