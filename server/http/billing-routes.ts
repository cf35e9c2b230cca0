/**
 * Billing calls under /api/billing (issue 20): the account's billing history (session token, like the
 * devices list) and, for the local checkout, its printable receipts.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { billingHistoryAnswerSchema, billingHistoryRequestSchema, text } from '../../contract/api.ts';
import { brandForServer } from '../brand.ts';
import { billingHistory, localReceipt } from '../domain/billing-history.ts';
import { failures } from '../domain/errors.ts';
import type { AppDeps } from './context.ts';
import { renderReceiptPage } from './receipt-page.ts';
import { answers, failureAnswers } from './route-schemas.ts';
import { sessionPreHandler, signedIn } from './signed-in.ts';
import { withReason } from './validation.ts';

const tags = ['billing'];
const receiptParamsSchema = withReason(z.object({ id: text(128).refine((value) => value.length > 0) }), 'receipt number is not valid');

export async function billingRoutes(scope: FastifyInstance, deps: AppDeps) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { db } = deps.database;
  const receiptUrl = (id: string) => `${deps.config.publicUrl}/api/billing/receipts/${encodeURIComponent(id)}`;

  app.post(
    '/history',
    {
      schema: { summary: 'The account\'s charges and refunds, newest first', tags, body: billingHistoryRequestSchema, response: answers(billingHistoryAnswerSchema) },
      preHandler: sessionPreHandler(db, deps.limits, 'billing'),
    },
    async (request) => ({ success: true as const, ...(await billingHistory(db, signedIn(request).user.id, receiptUrl)) }),
  );

  const htmlPage = { description: 'The printable receipt', content: { 'text/html': { schema: z.string() } } };
  app.get(
    '/receipts/:id',
    { schema: { summary: 'A local checkout receipt (printable HTML)', tags, params: receiptParamsSchema, response: { 200: htmlPage, ...failureAnswers } } },
    async (request, reply) => {
      const receipt = await localReceipt(db, request.params.id);
      if (!receipt) throw failures.notFound('Receipt');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .send(renderReceiptPage(receipt, brandForServer));
    },
  );
}
