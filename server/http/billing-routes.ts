/**
 * Billing calls under /api/billing (issue 20): the account's billing history (session token, like the
 * devices list), the billing portal (ID token, as every call that moves money) and, for the local
 * checkout, its printable receipts and its billing portal page.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  billingHistoryAnswerSchema,
  billingHistoryRequestSchema,
  billingPortalAnswerSchema,
  billingPortalRequestSchema,
  text,
} from '../../contract/api.ts';
import { brandForServer } from '../brand.ts';
import { ApiFailure, failures } from '../domain/errors.ts';
import type { AppDeps } from './context.ts';
import { renderLocalPortalPage } from './local-portal-page.ts';
import { renderReceiptPage } from './receipt-page.ts';
import { answers, failureAnswers } from './route-schemas.ts';
import { sessionPreHandler, signedIn } from './signed-in.ts';
import { withReason } from './validation.ts';

const tags = ['billing'];
const receiptParamsSchema = withReason(z.object({ id: text(128).refine((value) => value.length > 0) }), 'receipt number is not valid');
const portalParamsSchema = withReason(z.object({ id: text(128).refine((value) => value.length > 0) }), 'billing link is not valid');
const noPortal = () => new ApiFailure(404, 'not_found', 'This billing link has expired or does not exist. Open it again from your account page.');

export async function billingRoutes(scope: FastifyInstance, deps: AppDeps) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { billing, sessions } = deps.domain;
  const receiptUrl = (id: string) => `${deps.config.publicUrl}/api/billing/receipts/${encodeURIComponent(id)}`;

  app.post(
    '/history',
    {
      config: { rateLimitFamily: 'billing' },
      schema: { summary: 'The account\'s charges and refunds, newest first', tags, body: billingHistoryRequestSchema, response: answers(billingHistoryAnswerSchema) },
      preHandler: sessionPreHandler(sessions.authenticate, deps.limits),
    },
    async (request) => {
      // The money-back offer's window reads the local checkout's billing clock, as the claim does.
      return { success: true as const, ...(await billing.history(signedIn(request).user.id, receiptUrl, await deps.billingNow())) };
    },
  );

  const htmlPage = { description: 'The printable receipt', content: { 'text/html': { schema: z.string() } } };
  app.get(
    '/receipts/:id',
    { config: { rateLimitFamily: 'other' }, schema: { summary: 'A local checkout receipt (printable HTML)', tags, params: receiptParamsSchema, response: { 200: htmlPage, ...failureAnswers } } },
    async (request, reply) => {
      const receipt = await billing.receipt(request.params.id);
      if (!receipt) throw failures.notFound('Receipt');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .send(renderReceiptPage(receipt, brandForServer));
    },
  );

  app.post(
    '/portal',
    {
      // Opening the portal is counted with the other calls that change a subscription.
      config: { rateLimitFamily: 'cancel' },
      schema: {
        summary: 'Where to update the card and settle what is owed',
        tags,
        body: billingPortalRequestSchema,
        response: answers(billingPortalAnswerSchema),
      },
    },
    async (request) => ({
      success: true as const,
      url: await billing.openPortal(deps.payments, await deps.verifier.verify(request.body.idToken, { checkRevoked: true })),
    }),
  );

  const local = deps.localCheckout;
  if (!local) return;
  await app.register(async (plain) => {
    const portal = plain.withTypeProvider<ZodTypeProvider>();
    portal.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    portal.get(
      '/portal/local/:id',
      { config: { rateLimitFamily: 'other' }, schema: { summary: 'The local billing portal page', tags, params: portalParamsSchema, response: { 200: htmlPage, ...failureAnswers } } },
      async (request, reply) => {
        const session = await local.portalSession(request.params.id);
        if (!session) throw noPortal();
        const row = session.subscription;
        const endDate = row?.currentPeriodEnd
          ? row.currentPeriodEnd.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })
          : null;
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(renderLocalPortalPage({ id: request.params.id, email: session.email, pastDue: row?.status === 'past_due', endDate, brand: brandForServer }));
      },
    );
    portal.post(
      '/portal/local/:id/update',
      {
        config: { rateLimitFamily: 'other' },
        schema: {
          summary: 'Update the card and pay what is owed (local billing portal; redirects)',
          tags,
          params: portalParamsSchema,
          response: { 303: z.null().describe('303 to /account'), ...failureAnswers },
        },
      },
      async (request, reply) => {
        if (!(await local.updateCardAndSettle(request.params.id))) throw noPortal();
        return reply.redirect('/account', 303);
      },
    );
  });
}
