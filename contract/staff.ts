/**
 * Staff roles and what each may do (issue 30, item 2; design 7d): the one feature-to-role table. The API
 * enforces it (server/http/staff-routes.ts answers 403 outside it) and the /staff console follows it
 * (a button a role may not use is not shown). A role comes only from the Firebase custom claim `staff`.
 */

export const STAFF_ROLES = ['support', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** The actions of POST /api/staff/actions, each one audited (staff_actions). */
export const STAFF_ACTIONS = ['resend_receipt', 'revoke_device', 'refund', 'disable', 'enable', 'delete'] as const;
export type StaffActionName = (typeof STAFF_ACTIONS)[number];

export type StaffFeature = 'search' | 'view_customer' | 'view_servers' | StaffActionName;

/** Who may use each feature. Support looks and helps; Admin, in addition, moves money and locks or deletes accounts. */
export const FEATURE_ROLES: Record<StaffFeature, readonly StaffRole[]> = {
  search: ['support', 'admin'],
  view_customer: ['support', 'admin'],
  view_servers: ['support', 'admin'],
  resend_receipt: ['support', 'admin'],
  revoke_device: ['support', 'admin'],
  refund: ['admin'],
  disable: ['admin'],
  enable: ['admin'],
  delete: ['admin'],
};

/** Whether `role` (absent: no staff claim) may use `feature`. */
export function mayUse(role: StaffRole | null | undefined, feature: StaffFeature): boolean {
  return role != null && FEATURE_ROLES[feature].includes(role);
}

/** A staff reason's length (every action carries one, written to the audit trail). */
export const REASON_LIMITS = { min: 5, max: 500 } as const;
