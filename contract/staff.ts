/**
 * Staff roles and actions (issue 30; design 7d). A role comes only from the Firebase custom claim `staff`.
 */

const STAFF_ROLES = ['support', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** The actions of POST /api/staff/actions, each one audited (staff_actions). */
export const STAFF_ACTIONS = ['resend_receipt', 'revoke_device', 'refund', 'disable', 'enable', 'delete'] as const;
export type StaffActionName = (typeof STAFF_ACTIONS)[number];
