/**
 * The staff console's calls (issue 30): search, a customer, the servers, actions.
 * Part of the API contract (contract/api.ts).
 */
import { z } from 'zod';
import { activityItemSchema } from './account-activity.ts';
import { serverStatusSchema } from './relay.ts';
import { REASON_LIMITS, STAFF_ACTIONS, STAFF_ROLES } from './staff.ts';
import { billingItemSchema } from './api-billing.ts';
import { subscriptionSchema, successAnswer, text, token } from './api-common.ts';

// Staff (issue 30): every call takes a fresh Firebase ID token; the role is its `staff` claim, never the body.
const staffRoleSchema = z.enum(STAFF_ROLES);
const nonEmpty = (max: number) =>
  text(max)
    .transform((value) => value.trim())
    .refine((value) => value.length > 0, 'must not be empty');

// POST /staff/search: by e-mail (prefix), account id, payment customer id or receipt number
export const staffSearchRequestSchema = z.object({ idToken: token, query: nonEmpty(320) });
const staffCustomerSummarySchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  /** The subscription's status (`none` without one), or `disabled`. */
  status: z.string(),
  createdAt: z.string(),
});
export type StaffCustomerSummary = z.infer<typeof staffCustomerSummarySchema>;
export const staffSearchAnswerSchema = successAnswer({ role: staffRoleSchema, customers: z.array(staffCustomerSummarySchema) });

// POST /staff/customer
export const staffCustomerRequestSchema = z.object({ idToken: token, userId: nonEmpty(256) });
const staffActionRecordSchema = z.object({
  id: z.string(),
  /** ISO 8601 timestamp. */
  at: z.string(),
  staffEmail: z.string(),
  role: staffRoleSchema,
  action: z.enum(STAFF_ACTIONS),
  reason: z.string(),
  outcome: z.enum(['done', 'refused', 'failed']),
});
export type StaffActionRecord = z.infer<typeof staffActionRecordSchema>;
const staffCustomerSchema = z.object({
  profile: z.object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    provider: z.enum(['google', 'apple']),
    createdAt: z.string(),
    disabled: z.boolean(),
    paymentCustomerId: z.string().nullable(),
  }),
  subscription: subscriptionSchema.nullable(),
  billing: z.array(billingItemSchema),
  /** ISO 8601: until when the money-back guarantee can still be claimed; null when it cannot (issue 45 T12). */
  refundableUntil: z.string().nullable(),
  // Desktop app sessions and WireGuard keys (issue 29); a key has no last-used day (the relays report none).
  devices: z.array(
    z.object({ id: z.string(), name: z.string(), kind: z.enum(['desktop', 'wireguard']), createdAt: z.string(), lastUsedOn: z.string().nullable() }),
  ),
  emails: z.array(z.object({ kind: z.string(), date: z.string() })),
  actions: z.array(staffActionRecordSchema),
  /**
   * Whether the account's devices connect now, by the rule the peer list follows (issue 49, item 2):
   * `connects`, `pausedUntilPayment` (its payment is owed) or `planEnded` (no plan, or disabled).
   */
  access: z.enum(['connects', 'pausedUntilPayment', 'planEnded']),
  /** The account's own activity, as its account page shows it (issue 45 T12). */
  activity: z.array(activityItemSchema),
});
export type StaffCustomer = z.infer<typeof staffCustomerSchema>;
export const staffCustomerAnswerSchema = successAnswer({ role: staffRoleSchema, customer: staffCustomerSchema });

// POST /staff/servers: every VPN server's status (as GET /vpn/servers/status) with the peer-list version it applied
export const staffServersRequestSchema = z.object({ idToken: token });
export const staffServersAnswerSchema = successAnswer({
  role: staffRoleSchema,
  /** The peer list's current version. */
  version: z.number().int(),
  servers: z.array(
    serverStatusSchema.extend({
      /** The highest version the server confirmed applied (a poll since it, its ETag, or its report); 0 before any. */
      confirmedVersion: z.number().int(),
      /** The versionApplied of its last report, or null before one. */
      versionApplied: z.number().int().nullable(),
      agentVersion: z.string().nullable(),
    }),
  ),
});

// POST /staff/actions: reason 5-500 characters for every action; deviceId for revoke_device
export const staffActionRequestSchema = z
  .object({
    idToken: token,
    userId: nonEmpty(256),
    action: z.enum(STAFF_ACTIONS),
    reason: text(REASON_LIMITS.max + 100)
      .transform((value) => value.trim())
      .refine((value) => value.length >= REASON_LIMITS.min, `must be at least ${REASON_LIMITS.min} characters`)
      .refine((value) => value.length <= REASON_LIMITS.max, `must be at most ${REASON_LIMITS.max} characters`),
    deviceId: text(128).optional(),
  })
  .refine((body) => body.action !== 'revoke_device' || (body.deviceId ?? '').length > 0, {
    path: ['deviceId'],
    message: 'is required to revoke a device',
  });
export const staffActionAnswerSchema = successAnswer({ outcome: z.literal('done') });
