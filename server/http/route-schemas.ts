/**
 * What every route declares (issue 14, item 5): its request schema from the contract and its answers,
 * the success body and, for every failure, the one error envelope. Fastify validates requests with them
 * (validation.ts), checks and serialises answers with them (fastify-type-provider-zod), and
 * @fastify/swagger publishes them as the OpenAPI document at /api/openapi.json.
 */
import type { z } from 'zod';
import { errorResponseSchema } from '../../contract/api.ts';

/** A route's answers: `answer` with 200, the error envelope with any 4xx or 5xx. */
export function answers<A extends z.ZodType>(answer: A) {
  return { 200: answer, '4xx': errorResponseSchema, '5xx': errorResponseSchema };
}

/** The answers of a route that answers no JSON of its own on success (an HTML page, a redirect). */
export const failureAnswers = { '4xx': errorResponseSchema, '5xx': errorResponseSchema };
