import type { z } from 'zod';
import { ApiFailure } from '../domain/errors.ts';

/** Parses a request body with its contract schema; a 400 with a readable reason otherwise. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiFailure(400, 'Invalid request: a JSON object body is required.');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const reasons = parsed.error.issues
      .slice(0, 3)
      .map((issue) => {
        const field = issue.path.join('.') || 'body';
        return issue.code === 'invalid_type' && issue.input === undefined ? `${field} is required` : `${field}: ${issue.message}`;
      })
      .join('; ');
    throw new ApiFailure(400, `Invalid request: ${reasons}.`);
  }
  return parsed.data;
}
