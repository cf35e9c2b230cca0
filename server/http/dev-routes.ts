/**
 * Development-only calls under /api/dev. They exist only with the local checkout (no Stripe configured)
 * and never with NODE_ENV=production: with Stripe, use Stripe's own test clocks.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseDuration } from '../config.ts';
import { ApiFailure } from '../domain/errors.ts';
import type { AppDeps } from './context.ts';

/** A hundred years: enough for any test, and a bound on the renewals one call emits. */
const MAX_ADVANCE_SECONDS = 36_500 * 86_400;

const advanceRequestSchema = z.object({ by: z.string() });

export function devRoutesEnabled(deps: Pick<AppDeps, 'localCheckout'>, nodeEnv = process.env.NODE_ENV): boolean {
  return deps.localCheckout !== null && nodeEnv !== 'production';
}

export async function devRoutes(app: FastifyInstance, deps: AppDeps) {
  const local = deps.localCheckout;
  if (!local || !devRoutesEnabled(deps)) return;

  /** Moves the local billing clock forward (`{"by": "366d"}`) and runs the renewals and ends that fell due. */
  app.post('/billing-clock/advance', async (request) => {
    const body = advanceRequestSchema.safeParse(request.body);
    let by: number;
    try {
      if (!body.success) throw new Error('missing');
      by = parseDuration(body.data.by);
    } catch {
      throw new ApiFailure(400, 'Invalid request: by must be a duration such as 366d, 12h, 30m, 45s or seconds.');
    }
    if (by > MAX_ADVANCE_SECONDS) throw new ApiFailure(400, 'Invalid request: the billing clock moves at most 36500d at once.');
    const { now, renewed, ended } = await local.advanceClock(by);
    return { success: true, now: now.toISOString(), renewed, ended };
  });
}
