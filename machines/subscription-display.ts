/**
 * The subscription rule the flows share (spec §3). Display texts (badges, dates, "until ...") live in
 * src/screens/subscription-texts.ts: they are not flow rules.
 */
import type { Subscription } from '../contract/api';

/** `active` is the only status that grants access (spec §3). */
export function isActive(subscription: Pick<Subscription, 'status'> | null | undefined): boolean {
  return subscription?.status === 'active';
}
