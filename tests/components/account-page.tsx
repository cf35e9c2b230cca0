/**
 * The account page as its screens draw it, from plain props: the cards of src/features/account/ without their
 * machines, so a test can set any state of the page. The page itself composes the same screens, each card
 * wired to its own machine (src/features/account/account-page.tsx).
 */
import type { ReactNode } from 'react';
import type { Subscription } from '../../contract/api';
import type { AppLinkPhase } from '../../src/components/app-link-status';
import { AccountInformationCard } from '../../src/screens/account-information-card';
import { AccountLayout } from '../../src/screens/account-page';
import { TurnOffAutoRenewalDialog } from '../../src/screens/billing-dialogs';
import { DangerZoneCard, DeleteAccountDialog } from '../../src/screens/danger-zone-card';
import { HelpCard } from '../../src/screens/help-card';
import { SubscriptionCard } from '../../src/screens/subscription-card';

export { SignInRequired } from '../../src/screens/account-page';

/** An action asked for in a confirmation dialog: whether the dialog is open, and its confirm button. */
interface ConfirmedAction {
  dialogOpen: boolean;
  onConfirm: () => void;
}

export interface AccountPageProps {
  user: { email: string; provider: 'google' | 'apple' };
  subscription: Subscription | null;
  refreshing: boolean;
  signingOut: boolean;
  onSignOut: () => void;
  onRefresh: () => void;
  onOpenVpnApp: () => void;
  vpnAppPhase?: AppLinkPhase;
  autoRenewal: ConfirmedAction & { cancelling: boolean; onTurnOff: () => void; onDismiss: () => void; onReEnable: () => void };
  deletion: ConfirmedAction & { deleting: boolean; onDelete: () => void; onCancel: () => void };
  devices?: ReactNode;
  now?: Date;
  billing?: ReactNode;
  onUpdatePaymentMethod?: () => void;
  refundableUntil?: string | null;
  onRefundInstead?: () => void;
}

export function AccountPage(props: AccountPageProps) {
  const { subscription, autoRenewal, deletion } = props;
  return (
    <AccountLayout>
      <AccountInformationCard user={props.user} signingOut={props.signingOut} onSignOut={props.onSignOut} />
      <SubscriptionCard
        subscription={subscription}
        refreshing={props.refreshing}
        onRefresh={props.onRefresh}
        onOpenVpnApp={props.onOpenVpnApp}
        vpnAppPhase={props.vpnAppPhase ?? 'idle'}
        onTurnOff={autoRenewal.onTurnOff}
        onReEnable={autoRenewal.onReEnable}
        onUpdatePaymentMethod={props.onUpdatePaymentMethod}
        now={props.now}
      />
      <TurnOffAutoRenewalDialog
        opened={autoRenewal.dialogOpen}
        busy={autoRenewal.cancelling}
        endDate={subscription?.endDate}
        onConfirm={autoRenewal.onConfirm}
        onDismiss={autoRenewal.onDismiss}
      />
      {/* Desktop devices belong to a subscription: no card without one (src/features/account/devices). */}
      {subscription && props.devices}
      {props.billing}
      <HelpCard />
      <DangerZoneCard onDelete={deletion.onDelete} />
      <DeleteAccountDialog
        subscription={subscription}
        dialogOpen={deletion.dialogOpen}
        deleting={deletion.deleting}
        onConfirm={deletion.onConfirm}
        onCancel={deletion.onCancel}
        onTurnOffInstead={() => {
          deletion.onCancel();
          autoRenewal.onTurnOff();
        }}
        refundableUntil={props.refundableUntil}
        onRefundInstead={props.onRefundInstead}
        now={props.now}
      />
    </AccountLayout>
  );
}
