/**
 * Account activity (issue 30, item 6): what happened to an account, as its owner sees it. Day precision
 * only (zero-log), never an IP address or user agent, and a staff action only as "Veil support" with its
 * action: never the staff member nor their reason.
 */
import { z } from 'zod';
import { STAFF_ACTIONS } from './staff.ts';

const ACTIVITY_KINDS = [
  'signed_in_new_device',
  'device_added',
  'device_revoked',
  /** A WireGuard device removed: its configuration stopped working (issue 45 item 6). */
  'device_removed',
  /** A device's WireGuard key replaced by Replace key: the old configuration stopped working. */
  'key_replaced',
  'device_renamed',
  'auto_renewal_off',
  'auto_renewal_on',
  'refund',
  'staff_action',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** Who did it: the customer, or Veil support (a staff member, never named). */
const ACTIVITY_ACTORS = ['customer', 'support'] as const;

/** What an entry may say beyond its kind: no secret, no address, no staff member. */
const activityDetailSchema = z.object({
  /** The device's name (device kinds). */
  deviceName: z.string().optional(),
  /** The staff action (kind `staff_action`). */
  action: z.enum(STAFF_ACTIONS).optional(),
  /** A refund's amount in the currency's smallest unit, and its currency. */
  amount: z.number().int().optional(),
  currency: z.string().optional(),
});
export type ActivityDetail = z.infer<typeof activityDetailSchema>;

export const activityItemSchema = z.object({
  kind: z.enum(ACTIVITY_KINDS),
  by: z.enum(ACTIVITY_ACTORS),
  /** The day, YYYY-MM-DD (UTC); never a time. */
  date: z.string(),
  detail: activityDetailSchema,
});
export type ActivityItem = z.infer<typeof activityItemSchema>;
