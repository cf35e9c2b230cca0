/**
 * Staff roles and what each may do (issue 30, item 2; design 7d; issue 49 item 2): written once here and
 * imported by the API (server/http/staff-routes.ts answers 403 outside it, server/identity/verifier.ts reads
 * the claim with `isStaffRole`) and by the /staff console (a button a role may not use is not shown). A role
 * comes only from the Firebase custom claim `staff`.
 *
 * The roles are permission levels, lowest first (Mozilla's FxA admin panel does the same): a role may use
 * every feature whose lowest role is at or below its own. A new role is one entry in `STAFF_ROLES`, and a
 * feature it alone may use names it in `FEATURE_MIN_ROLE`.
 */

/** Lowest first: each role may do everything the roles before it may, and more. */
export const STAFF_ROLES = ['support', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Whether a claim's value is a staff role (anything else, absent included, is no role). */
export function isStaffRole(value: unknown): value is StaffRole {
  return (STAFF_ROLES as readonly unknown[]).includes(value);
}

/** The actions of POST /api/staff/actions, each one audited (staff_actions), in the console's order. */
export const STAFF_ACTIONS = ['resend_receipt', 'revoke_device', 'refund', 'disable', 'enable', 'delete'] as const;
export type StaffActionName = (typeof STAFF_ACTIONS)[number];

/** What an action acts on: one device (a button on its row) or the whole account (the danger zone). */
export const ACTION_TARGETS: Record<StaffActionName, 'device' | 'account'> = {
  resend_receipt: 'account',
  revoke_device: 'device',
  refund: 'account',
  disable: 'account',
  enable: 'account',
  delete: 'account',
};

export type StaffFeature = 'search' | 'view_customer' | 'view_servers' | StaffActionName;

/** The lowest role that may use each feature. Support looks and helps; Admin also moves money and locks or deletes accounts. */
const FEATURE_MIN_ROLE: Record<StaffFeature, StaffRole> = {
  search: 'support',
  view_customer: 'support',
  view_servers: 'support',
  resend_receipt: 'support',
  revoke_device: 'support',
  refund: 'admin',
  disable: 'admin',
  enable: 'admin',
  delete: 'admin',
};

const level = (role: StaffRole) => STAFF_ROLES.indexOf(role);

/** Whether `role` (absent: no staff claim) may use `feature`. */
export function mayUse(role: StaffRole | null | undefined, feature: StaffFeature): boolean {
  return role != null && level(role) >= level(FEATURE_MIN_ROLE[feature]);
}

/** Who may use each feature, spelled out from the levels (docs/api.md's table, the roles test). */
export const FEATURE_ROLES = {} as Record<StaffFeature, readonly StaffRole[]>;
for (const feature of Object.keys(FEATURE_MIN_ROLE) as StaffFeature[]) FEATURE_ROLES[feature] = STAFF_ROLES.filter((role) => mayUse(role, feature));

/** A staff reason's length (every action carries one, written to the audit trail). */
export const REASON_LIMITS = { min: 5, max: 500 } as const;
