/**
 * Whether this instance is alive and can work (issue 23, docs/operations.md): /live answers as long as the
 * process does (no dependency touched), /health asks the database, /ready every dependency. The probes are
 * handed in by buildApp, so no route holds the database handle.
 */
import type { FastifyInstance } from 'fastify';
import { healthResponseSchema, liveResponseSchema, readyResponseSchema, type ReadyResponse } from '../../contract/api.ts';
import { answers } from './route-schemas.ts';

export interface HealthProbes {
  /** Whether the database answers. */
  databaseUp(): Promise<boolean>;
  /** Every dependency, named (server/observability/readiness.ts). */
  readiness(): Promise<ReadyResponse>;
}

const tags = ['health'];
/** Probes: no person calls them, and a load balancer calls them often. */
const config = { rateLimitFamily: 'other' } as const;

export async function healthRoutes(api: FastifyInstance, probes: HealthProbes) {
  api.get('/live', { config, schema: { summary: 'Liveness', tags, response: answers(liveResponseSchema) } }, async () => ({ ok: true }));

  const healthSchema = { summary: 'Readiness (the database)', tags, response: { ...answers(healthResponseSchema), 503: healthResponseSchema } };
  api.get('/health', { config, schema: healthSchema }, async (_request, reply) => {
    const databaseUp = await probes.databaseUp().catch(() => false);
    return reply.code(databaseUp ? 200 : 503).send({ ok: databaseUp, database: databaseUp });
  });

  const readySchema = {
    summary: 'Readiness (the database, Redis when configured, the job queue)',
    tags,
    response: { ...answers(readyResponseSchema), 503: readyResponseSchema },
  };
  api.get('/ready', { config, schema: readySchema }, async (_request, reply) => {
    const answer = await probes.readiness();
    return reply.code(answer.ok ? 200 : 503).send(answer);
  });
}
