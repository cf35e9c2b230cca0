/**
 * The staff API under /api/staff (issue 30, items 1-3). Every call carries a fresh Firebase ID token,
 * verified with revocation checked (a role removed by `npm run staff:grant -- <email> none` revokes the
 * user's tokens, so it ends at once); the role is the token's `staff` claim, never anything in the body.
 * 401 without a valid token; 403 `staff_forbidden` for a role the table (contract/staff.ts) does not
 * allow, for a caller with no role, and for staff outside STAFF_EMAIL_DOMAIN when it is set.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  staffActionAnswerSchema,
  staffActionRequestSchema,
  staffCustomerAnswerSchema,
  staffServersAnswerSchema,
  staffServersRequestSchema,
  staffCustomerRequestSchema,
  staffSearchAnswerSchema,
  staffSearchRequestSchema,
} from '../../contract/api.ts';
import { mayUse, type StaffFeature } from '../../contract/staff.ts';
import { failures } from '../domain/errors.ts';
import type { StaffMember } from '../domain/staff.ts';
import type { AppDeps } from './context.ts';
import { answers } from './route-schemas.ts';
import { serversStatus, statusDaysFrom } from '../vpn/server-status.ts';

const tags = ['staff'];

export async function staffRoutes(scope: FastifyInstance, deps: AppDeps) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { staff } = deps.domain;
  const receiptUrl = (id: string) => `${deps.config.publicUrl}/api/billing/receipts/${encodeURIComponent(id)}`;

  /** The caller as staff: 401 for a bad, expired or revoked token; 403 without a role (or outside the staff domain). */
  async function staffMember(idToken: string): Promise<StaffMember> {
    const identity = await deps.verifier.verify(idToken, { checkRevoked: true });
    const role = identity.staffRole ?? null;
    const domain = deps.config.staffEmailDomain;
    const email = identity.email?.toLowerCase() ?? '';
    if (!role || !email || (domain !== undefined && !email.endsWith(`@${domain}`))) throw failures.staffForbidden();
    return { uid: identity.subject, email, role };
  }

  /** A staff member allowed `feature` by the table; 403 otherwise. */
  async function allowed(idToken: string, feature: StaffFeature): Promise<StaffMember> {
    const member = await staffMember(idToken);
    if (!mayUse(member.role, feature)) throw failures.staffForbidden();
    return member;
  }

  app.post(
    '/search',
    {
      config: { rateLimitFamily: 'staff' },
      schema: {
        summary: 'Staff: find customers by e-mail prefix, account id, payment customer id or receipt number (at most 20)',
        tags,
        body: staffSearchRequestSchema,
        response: answers(staffSearchAnswerSchema),
      },
    },
    async (request) => {
      const member = await allowed(request.body.idToken, 'search');
      await staff.auditLook(member, { action: 'search', query: request.body.query });
      return { success: true as const, role: member.role, customers: await staff.search(request.body.query, await deps.billingNow()) };
    },
  );

  app.post(
    '/servers',
    {
      config: { rateLimitFamily: 'staff' },
      schema: {
        summary: "Staff: every VPN server's status and the peer-list version it applied",
        tags,
        body: staffServersRequestSchema,
        response: answers(staffServersAnswerSchema),
      },
    },
    async (request) => {
      const member = await allowed(request.body.idToken, 'view_servers');
      const now = deps.statusNow();
      const [{ version, servers: rows }, tally] = await Promise.all([deps.domain.relay.serverStates(), deps.domain.relay.uptimeDays(statusDaysFrom(now))]);
      const catalogue = deps.config.vpnServers.servers;
      const byId = new Map(rows.map((row) => [row.serverId, row]));
      const servers = serversStatus(catalogue, rows, tally, now).servers.map((server) => {
        const row = byId.get(server.id);
        return { ...server, confirmedVersion: row?.confirmedVersion ?? 0, versionApplied: row?.versionApplied ?? null, agentVersion: row?.agentVersion ?? null };
      });
      return { success: true as const, role: member.role, version, servers };
    },
  );

  app.post(
    '/customer',
    {
      config: { rateLimitFamily: 'staff' },
      schema: {
        summary: 'Staff: one customer: profile, subscription, charges and refunds, devices, e-mails sent, staff actions',
        tags,
        body: staffCustomerRequestSchema,
        response: answers(staffCustomerAnswerSchema),
      },
    },
    async (request) => {
      const member = await allowed(request.body.idToken, 'view_customer');
      await staff.auditLook(member, { action: 'view_customer', userId: request.body.userId });
      return { success: true as const, role: member.role, customer: await staff.customer(request.body.userId, receiptUrl, await deps.billingNow()) };
    },
  );

  app.post(
    '/actions',
    {
      config: { rateLimitFamily: 'staff' },
      schema: {
        summary: 'Staff: act on a customer (resend_receipt, revoke_device, refund, disable, enable, delete), with a reason; audited',
        tags,
        body: staffActionRequestSchema,
        response: answers(staffActionAnswerSchema),
      },
    },
    async (request) => {
      // Any staff role gets this far; the domain checks the action against the table and audits a refusal.
      const member = await staffMember(request.body.idToken);
      const { userId, action, reason, deviceId } = request.body;
      await staff.act({ payments: deps.payments, jobs: deps.jobs, identityAdmin: deps.identityAdmin, billingNow: await deps.billingNow() }, member, { userId, action, reason, deviceId });
      return { success: true as const, outcome: 'done' as const };
    },
  );
}
