/**
 * Development-only calls under /api/dev. They exist only with the local checkout (no Stripe configured)
 * and NODE_ENV=development or test (never in production, nor with NODE_ENV unset): with Stripe, use
 * Stripe's own test clocks.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parseDuration } from '../config.ts';
import { invalidRequest } from '../domain/errors.ts';
import type { AppDeps } from './context.ts';
import { answers } from './route-schemas.ts';
import { withReason } from './validation.ts';

/** A hundred years: enough for any test, and a bound on the renewals one call emits. */
const MAX_ADVANCE_SECONDS = 36_500 * 86_400;

const isDuration = (value: string) => {
  try {
    parseDuration(value);
    return true;
  } catch {
    return false;
  }
};
const advanceRequestSchema = withReason(
  z.object({
    by: z.string().refine(isDuration),
    /** Decline the renewals that fall due in this advance (issue 20, item 8). */
    decline: z.boolean().optional(),
  }),
  'by must be a duration such as 366d, 12h, 30m, 45s or seconds',
);
const advanceAnswerSchema = z.object({
  success: z.literal(true),
  /** The billing clock's new time. */
  now: z.string(),
  renewed: z.number(),
  ended: z.number(),
  declined: z.number(),
});

function devRoutesEnabled(deps: Pick<AppDeps, 'localCheckout' | 'config'>): boolean {
  return deps.localCheckout !== null && deps.config.developmentRoutes;
}

export async function devRoutes(scope: FastifyInstance, deps: AppDeps) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const local = deps.localCheckout;
  if (!local || !devRoutesEnabled(deps)) return;

  /** Moves the local billing clock forward (`{"by": "366d"}`) and runs the renewals and ends that fell due. */
  app.post(
    '/billing-clock/advance',
    {
      config: { rateLimitFamily: 'other' },
      schema: {
        summary: 'Move the local billing clock forward (development only)',
        tags: ['development'],
        body: advanceRequestSchema,
        response: answers(advanceAnswerSchema),
      },
    },
    async (request) => {
      const by = parseDuration(request.body.by);
      if (by > MAX_ADVANCE_SECONDS) throw invalidRequest('the billing clock moves at most 36500d at once.');
      const { now, renewed, ended, declined } = await local.advanceClock(by, { decline: request.body.decline ?? false });
      return { success: true as const, now: now.toISOString(), renewed, ended, declined };
    },
  );
}
