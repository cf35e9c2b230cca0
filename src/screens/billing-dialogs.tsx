import { Button, Text } from '@mantine/core';
import { REFUND_ARRIVES_WITHIN } from '../../contract/refund-timing';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DialogActions } from '../components/dialog-actions';
import { brand } from '../config/brand';
import { untilText } from './subscription-texts';

interface DialogProps {
  opened: boolean;
  busy: boolean;
  onConfirm: () => void;
  onDismiss: () => void;
}

/** Re-enable Auto-Renewal, confirmed as turning it off is (design §8); its buttons as every dialog's (issue 45, T26). */
export function ResumeAutoRenewalDialog({ opened, busy, onConfirm, onDismiss, endDate }: DialogProps & { endDate?: string }) {
  return (
    <ConfirmDialog opened={opened || busy} onClose={onDismiss} title="Turn auto-renewal back on?">
      <Text size="sm">
        Your subscription stays active {untilText(endDate)} and then renews automatically for another {brand.price.interval.noun} at {brand.price.amount}, charged to your card on file. You can turn it off again at any time.
      </Text>
      <DialogActions>
        <Button variant="default" onClick={onDismiss} disabled={busy}>
          Keep It Off
        </Button>
        <Button onClick={onConfirm} disabled={busy}>
          {busy ? 'Processing...' : 'Turn On Auto-Renewal'}
        </Button>
      </DialogActions>
    </ConfirmDialog>
  );
}

/** Cancel and refund (the money-back guarantee): says that access ends now, in the terms' words. */
export function RefundDialog({ opened, busy, onConfirm, onDismiss }: DialogProps) {
  return (
    <ConfirmDialog opened={opened || busy} onClose={onDismiss} title="Cancel and get a refund?">
      <Text size="sm">
        Your subscription ends now and your VPN access ends with it. Your first payment is refunded in full: the money
        returns to your card within {REFUND_ARRIVES_WITHIN}.
      </Text>
      <DialogActions>
        <Button variant="default" onClick={onDismiss} disabled={busy}>
          Keep My Subscription
        </Button>
        <Button color="red.9" onClick={onConfirm} disabled={busy}>
          {busy ? 'Processing...' : 'Cancel and Refund'}
        </Button>
      </DialogActions>
    </ConfirmDialog>
  );
}

/** Turn Off Auto-Renewal's confirmation: the subscription stays active until its end date. */
export function TurnOffAutoRenewalDialog({ opened, busy, onConfirm, onDismiss, endDate }: DialogProps & { endDate?: string }) {
  return (
    <ConfirmDialog opened={opened || busy} onClose={onDismiss} title="Turn off auto-renewal?">
      <Text size="sm">Your subscription stays active {untilText(endDate)}, and you will not be charged again.</Text>
      <DialogActions>
        <Button variant="default" onClick={onDismiss} disabled={busy}>
          Keep Auto-Renewal
        </Button>
        <Button color="red.9" onClick={onConfirm} disabled={busy}>
          {busy ? 'Processing...' : 'Turn Off Auto-Renewal'}
        </Button>
      </DialogActions>
    </ConfirmDialog>
  );
}
