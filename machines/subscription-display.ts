/**
 * The subscription rule the flows share (spec §3). Display texts (badges, dates, "until ...") live in
 * src/screens/subscription-texts.ts: they are not flow rules.
 */
import type { Subscription } from '../contract/api';

/** `active` is the only status that grants access (spec §3). */
export function isActive(subscription: Pick<Subscription, 'status'> | null | undefined): boolean {
  return subscription?.status === 'active';
}

/**
 * Whether the account's WireGuard devices and desktop apps connect now (issue 45 item 2; design §7c: the
 * relays list a key while the subscription is `active` or `past_due`). A past-due one keeps access while the
 * card is retried; once the provider stops retrying (the API says `unpaid`: Stripe's `unpaid`, issue 46 item
 * 2) or `payBy` has passed with no word, the devices wait for payment. Any other status (cancelled by the
 * customer, refunded, never renewed) has ended. An account that never subscribed has no plan, not an ended one
 * (`noPlan`: a desktop app can sign in without one).
 */
export type DeviceAccess = 'connects' | 'planEnded' | 'pausedUntilPayment' | 'noPlan';

export function deviceAccess(subscription: Pick<Subscription, 'status' | 'unpaid'> | null | undefined, payBy: Date | null, now: Date): DeviceAccess {
  if (!subscription) return 'noPlan';
  if (subscription.status === 'active') return 'connects';
  if (subscription.status === 'past_due') {
    if (subscription.unpaid === true) return 'pausedUntilPayment';
    return payBy !== null && now.getTime() > payBy.getTime() ? 'pausedUntilPayment' : 'connects';
  }
  return 'planEnded';
}
