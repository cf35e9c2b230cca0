import { Navigate, createFileRoute, useRouter } from '@tanstack/react-router';
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
import { useAppMachine } from '../../app/use-app-machine';
import { useAppLink } from '../../app/use-app-link';
import { guardRoute } from '../../app/guards';
import { useSessionTag, useSessionUser, useSubscription } from '../../app/use-session';
import { isActive } from '../../../machines/subscription-display';
import { storage } from '../../services/storage';
import { PageSpinner } from '../../components/page-spinner';
import { AccountPage, SignInRequired } from '../../screens/account-page';
import { BillingHistoryCard } from '../../screens/billing-history-card';
import { RefundDialog, ResumeAutoRenewalDialog } from '../../screens/billing-dialogs';
import { DevicesCard } from '../../screens/devices-card';
import { PairingDialog } from '../../screens/pairing-dialog';
import { PastDueNotice } from '../../screens/past-due-notice';

/** How long after a sign-in opened the app's link /account still speaks of it (the hand-off takes 2 s). */
const APP_LINK_AFTER_SIGN_IN_MS = 10_000;

export const Route = createFileRoute('/_mantine/account')({
  beforeLoad: (options) => guardRoute(options),
  pendingComponent: () => <PageSpinner />,
  component: AccountRoute,
});

function AccountRoute() {
  const user = useSessionUser();
  const loading = useSessionTag('loading');
  // A deliberate Sign Out here leads to the home page, where the spec's toast shows (design §8).
  const [signedOutHere, setSignedOutHere] = useState(false);
  if (loading) return <PageSpinner />;
  if (!user && signedOutHere) return <Navigate to="/" replace />;
  // The session ended while the page was open (e.g. another tab signed out): design §5.
  if (!user) return <SignInRequired />;
  return <SignedInAccount onSignOut={() => setSignedOutHere(true)} />;
}

/**
 * The desktop app started a pairing (issue 23): /account?pair=<PKCE challenge>. Once signed in, the page
 * asks the customer first (issue 34: any app or page can open this address), and only on their yes mints
 * a link for that challenge and opens the app. The parameter is dropped at once, so a reload does not ask
 * again.
 */
const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

function usePairingRequest(actors: ReturnType<typeof useAppActors>) {
  const [challenge, setChallenge] = useState<string | null>(null);
  useEffect(() => {
    const url = new URL(window.location.href);
    const asked = url.searchParams.get('pair');
    if (asked === null) return;
    url.searchParams.delete('pair');
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    // The contract's shape (a base64url SHA-256), checked here without loading zod on this page.
    if (PKCE_CHALLENGE.test(asked)) setChallenge(asked);
  }, []);
  return {
    pending: challenge !== null,
    // A link that could not be made has said why in a toast already.
    confirm: () => {
      if (challenge !== null) openVpnApp(actors, challenge).catch(() => undefined);
      setChallenge(null);
    },
    dismiss: () => setChallenge(null),
  };
}

function SignedInAccount({ onSignOut }: { onSignOut: () => void }) {
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
  const [renewal, sendRenewal] = useAppMachine(autoRenewalMachine, 'account.autoRenewal', { user: accountUser });
  const [deletion, sendDeletion] = useAppMachine(deletionMachine, 'account.deletion', { user: accountUser });
  const devicesMachine = useMemo(() => provideDevices(actors), [actors]);
  const pairing = usePairingRequest(actors);
  const vpnApp = useAppLink(() => openVpnApp(actors));
  // Sent here by a desktop sign-in that opened the app's link: still in front means it did not open.
  const { notOpened } = vpnApp;
  useEffect(() => {
    const openedAt = storage.takeAppLinkAfterSignIn();
    if (openedAt !== null && Date.now() - openedAt < APP_LINK_AFTER_SIGN_IN_MS && document.hasFocus()) notOpened();
    // Once, on arrival.
  }, []);
  const [devices, sendDevices] = useAppMachine(devicesMachine, 'account.devices', {});
  const billingMachine = useMemo(() => provideBillingHistory(actors), [actors]);
  const [billing, sendBilling] = useAppMachine(billingMachine, 'account.billingHistory', {});
  // A refund adds an item and closes the guarantee: the history is read again once the card has refreshed.
  const refunding = renewal.hasTag('refunding');
  const [openingPortal, setOpeningPortal] = useState(false);
  const wasRefunding = useRef(false);
  useEffect(() => {
    if (wasRefunding.current && !refunding) sendBilling({ type: 'billingHistory.reload' });
    wasRefunding.current = refunding;
  }, [refunding, sendBilling]);

  return (
    <>
      <PairingDialog opened={pairing.pending} email={user.email} onConfirm={pairing.confirm} onDismiss={pairing.dismiss} />
      <AccountPage
        user={user}
        subscription={subscription}
        refreshing={sessionRefreshing || renewal.hasTag('refreshing')}
        signingOut={signingOut}
        onSignOut={() => {
          onSignOut();
          actors.session.send({ type: 'session.signOut' });
        }}
        onRefresh={() => sendRenewal({ type: 'subscription.refresh' })}
        onOpenVpnApp={vpnApp.open}
        vpnAppPhase={vpnApp.phase}
        devices={
          <DevicesCard
            devices={devices.context.devices}
            loading={devices.hasTag('loading')}
            error={devices.matches('failed') ? devices.context.error : null}
            revokingId={devices.context.revoking}
            onRevoke={(deviceId) => sendDevices({ type: 'devices.revoke', deviceId })}
            onReload={() => sendDevices({ type: 'devices.reload' })}
            openAppOffered={isActive(subscription)}
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
    </>
  );
}
