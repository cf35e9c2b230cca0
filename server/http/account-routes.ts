/**
 * Calls under /api/account about the account itself (issue 30, item 6): its activity, with the website's
 * or a desktop app's session token, like the devices list.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountActivityAnswerSchema, accountActivityRequestSchema } from '../../contract/api.ts';
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
      schema: {
        summary: "The account's own activity, newest first (days only; staff actions as Veil support)",
        tags,
        body: accountActivityRequestSchema,
        response: answers(accountActivityAnswerSchema),
      },
      preHandler: sessionPreHandler(sessions.authenticate, deps.limits, 'billing'),
    },
    async (request) => ({ success: true as const, items: await account.activity(signedIn(request).user.id) }),
  );
}
