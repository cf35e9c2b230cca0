import { Alert, Button, Text } from '@mantine/core';
import { brand } from '../config/brand';
import { formatLongDate } from './subscription-texts';
import classes from './past-due-notice.module.css';
import cardAction from '../components/card-action.module.css';

export interface PastDueNoticeProps {
  onUpdatePaymentMethod: () => void;
  opening: boolean;
  /** The renewal that failed (the subscription's end date), when known. */
  failedOn?: string;
  /** The day by which paying keeps the plan (subscription-texts `payByDate`), when known. */
  payBy?: Date | null;
  /** The retries are over and access is gone (the API's `unpaid`, issue 46 item 2): the VPN waits for payment. */
  unpaid?: boolean;
}

/**
 * While a renewal is past due the VPN keeps working (design §8: keys stay listed through the provider's
 * retry window, issue 46 item 2); it stops when the retries end unpaid, until the customer pays.
 */
const STILL_CONNECTED = 'Your VPN keeps working while we try the payment again.';
const PAUSED = 'We have stopped trying the payment, so your VPN is paused until payment.';

/**
 * A declined renewal (issue 20, item 5), inside the Subscription Status card (issue 34): what happened, by
 * when the customer must act, and the way to pay first. A light notice in the Past Due badge's
 * colour: the page's one call to act, not its heaviest block.
 */
export function PastDueNotice({ onUpdatePaymentMethod, opening, failedOn, payBy, unpaid = false }: PastDueNoticeProps) {
  const access = unpaid ? PAUSED : STILL_CONNECTED;
  return (
    <Alert color="yellow" variant="light" title="Your renewal payment failed" className={classes.notice}>
      <Text size="sm">
        {failedOn ? `We could not charge your card for your ${brand.price.interval.adjective} renewal on ${formatLongDate(failedOn)}. ${access}` : `We could not charge your card for your ${brand.price.interval.adjective} renewal. ${access}`}{' '}
        {unpaid
          ? 'Update your payment method to pay: your devices connect again once it is paid, and your plan renews from its original date.'
          : payBy
            ? `Update your payment method by ${formatLongDate(payBy)} to keep your plan; it renews from its original date. After that day your subscription ends.`
            : 'Update your payment method to pay and keep your plan; it renews from its original date.'}
      </Text>
      <Button mt="sm" onClick={onUpdatePaymentMethod} loading={opening} className={cardAction.action}>
        Update payment method
      </Button>
    </Alert>
  );
}
