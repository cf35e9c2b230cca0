/**
 * Calls under /api/account about the account itself (issue 30, item 6): its activity, with the website's
 * or a desktop app's session token, like the devices list.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountActivityAnswerSchema, accountActivityRequestSchema, accountExportRequestSchema, accountExportSchema } from '../../contract/api.ts';
import { brandForServer } from '../brand.ts';
import type { AppDeps } from './context.ts';
import { answers } from './route-schemas.ts';
import { sessionPreHandler, signedIn } from './signed-in.ts';

const tags = ['account'];

export async function accountRoutes(scope: FastifyInstance, deps: AppDeps) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { account, sessions } = deps.domain;

  app.post(
    '/activity',
    {
      // Read with the billing history on the account page: counted with it.
      config: { rateLimitFamily: 'billing' },
      schema: {
        summary: "The account's own activity, newest first, a page at a time (days only; staff actions as Veil support)",
        tags,
        body: accountActivityRequestSchema,
        response: answers(accountActivityAnswerSchema),
      },
      preHandler: sessionPreHandler(sessions.authenticate, deps.limits),
    },
    async (request) => ({
      success: true as const,
      ...(await account.activity(signedIn(request).user.id, { cursor: request.body.cursor, limit: request.body.limit })),
    }),
  );

  // The customer's copy of their data (issue 31, item 4): a JSON attachment, after a sign-in within the
  // last 10 minutes (else 401 reauth_required), one per account per 10 minutes (else 429).
  app.post(
    '/export',
    {
      // From the account page, with the billing history and the activity: counted with them.
      config: { rateLimitFamily: 'billing' },
      schema: {
        summary: "Download a copy of everything kept about the account (sign-in within 10 minutes; one per 10 minutes)",
        description: 'Answers the copy as a JSON attachment (Content-Disposition). No token hash, hand-off code, page link or receipt number (a local receipt’s opens its page) is in it.',
        tags,
        body: accountExportRequestSchema,
        response: answers(accountExportSchema),
      },
    },
    async (request, reply) => {
      const identity = await deps.verifier.verify(request.body.idToken, { checkRevoked: true });
      const copy = await account.exportData(identity, (userId) => deps.limits.forAccount('export', userId));
      const file = `${brandForServer.productName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-data-${copy.exportedAt.slice(0, 10)}.json`;
      return reply.header('content-disposition', `attachment; filename="${file}"`).header('cache-control', 'no-store').send(copy);
    },
  );
}
