import type { z } from 'zod';
import { hasControlCharacters } from '../../contract/api.ts';
import { ApiFailure } from '../domain/errors.ts';

/** Says what is wrong with one field, in words a caller can act on ("sessionToken must be a string"). */
function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.map(String).join('.') || 'body';
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `${field} is required` : `${field} must be ${article(issue.expected)}`;
    case 'too_big':
      return `${field} must be at most ${String(issue.maximum)} characters`;
    case 'too_small':
      return `${field} must not be empty`;
    case 'custom':
      return `${field} ${issue.message}`;
    default:
      return `${field}: ${issue.message}`;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** Parses a request body with its contract schema; a 400 with a readable reason otherwise. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiFailure(400, 'Invalid request: a JSON object body is required.');
  }
  // reportInput: the issue carries the value received, which tells "missing" from "of the wrong type".
  const parsed = schema.safeParse(body, { reportInput: true });
  if (!parsed.success) {
    const reasons = parsed.error.issues.slice(0, 3).map(describeIssue).join('; ');
    throw new ApiFailure(400, `Invalid request: ${reasons}.`);
  }
  return parsed.data;
}

/** A path parameter used as an id: 400 when it is empty, too long or carries control characters. */
export function parsePathId(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 128 || hasControlCharacters(value)) {
    throw new ApiFailure(400, `Invalid request: ${name} is not a valid id.`);
  }
  return value;
}
