import { Alert, Button, Card, List, Stack, Text, Title } from '@mantine/core';
import type { Subscription } from '../../contract/api';
import { isActive } from '../../machines/subscription-display';
import { brand } from '../config/brand';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DialogActions } from '../components/dialog-actions';
import { formatLongDate, untilText } from './subscription-texts';
import cardAction from '../components/card-action.module.css';

export function DangerZoneCard({ onDelete }: { onDelete: () => void }) {
  return (
    <Card
      withBorder
      padding="lg"
      radius="md"
      component="section"
      aria-labelledby="danger-title"
      style={{ borderColor: 'var(--mantine-color-red-6)' }}
    >
      <Title order={2} size="h4" id="danger-title" c="light-dark(var(--mantine-color-red-9), var(--mantine-color-red-3))">
        Danger Zone
      </Title>
      <Text c="dimmed" mt="sm">
        Permanently delete your account and all of its data.
      </Text>
      <Button color="red.9" mt="md" onClick={onDelete} className={cardAction.action}>
        Delete Account
      </Button>
    </Card>
  );
}

export interface DeleteAccountDialogProps {
  subscription: Subscription | null;
  dialogOpen: boolean;
  deleting: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** "Turn Off Auto-Renewal instead": this dialog closes and the subscription card's own dialog opens. */
  onTurnOffInstead: () => void;
  /** Until when the money-back guarantee can be claimed (ISO), or null; inside it the dialog offers the refund first. */
  refundableUntil?: string | null;
  /** "Cancel and Refund instead": this dialog closes and the refund's confirmation opens. */
  onRefundInstead?: () => void;
  /** "Now", for whether the guarantee is still open; tests pin it. */
  now?: Date;
}

export function DeleteAccountDialog(props: DeleteAccountDialogProps) {
  const { subscription, dialogOpen, deleting, onConfirm, onCancel, onTurnOffInstead } = props;
  const live = isActive(subscription);
  // Inside the money-back window the customer is owed their payment: the refund comes first (issue 34).
  const refundable =
    live && props.refundableUntil != null && props.onRefundInstead !== undefined && new Date(props.refundableUntil) > (props.now ?? new Date());
  // Offered only while it would change something: auto-renewal is still on, and no refund is owed instead.
  const offerTurnOff = live && !subscription?.cancelAtPeriodEnd && !refundable;
  return (
    <ConfirmDialog opened={dialogOpen} onClose={onCancel} title="Are you absolutely sure?">
      <Stack gap="sm">
        <Text size="sm">This will permanently delete:</Text>
        <List size="sm">
          <List.Item>Your account and profile information</List.Item>
          <List.Item>All subscription data</List.Item>
          <List.Item>Your devices: desktop apps are signed out and WireGuard configurations stop working at once</List.Item>
          <List.Item>Your preferences and settings</List.Item>
        </List>
        <Text size="sm" fw={600}>
          This action cannot be undone.
        </Text>
        {refundable ? (
          <Alert color="yellow" variant="light" title="You can still get your money back">
            <Text size="sm">
              Your {brand.moneyBack.name} runs until {formatLongDate(props.refundableUntil)}. Cancel and refund first to get
              your first payment back in full; deleting your account ends your {brand.premiumName} subscription immediately.
            </Text>
          </Alert>
        ) : (
          live && (
            <Alert color="yellow" variant="light" title="Your subscription ends now">
              <Text size="sm">
                Deleting your account ends your {brand.premiumName} subscription immediately. You will not be charged
                again, and the unused time {untilText(subscription?.endDate)} is not refunded.
              </Text>
              {offerTurnOff && (
                <Text size="sm" mt="xs">
                  To stop future charges but keep your VPN {untilText(subscription?.endDate)}, turn off auto-renewal
                  instead.
                </Text>
              )}
            </Alert>
          )
        )}
      </Stack>
      <DialogActions>
        <Button variant="default" onClick={onCancel} disabled={deleting}>
          Cancel
        </Button>
        {refundable && (
          <Button variant="default" disabled={deleting} onClick={props.onRefundInstead}>
            Cancel and Refund instead
          </Button>
        )}
        {offerTurnOff && (
          <Button variant="default" disabled={deleting} onClick={onTurnOffInstead}>
            Turn Off Auto-Renewal instead
          </Button>
        )}
        <Button color="red.9" onClick={onConfirm} disabled={deleting}>
          {deleting ? 'Deleting Account...' : 'Delete Account Permanently'}
        </Button>
      </DialogActions>
    </ConfirmDialog>
  );
}
