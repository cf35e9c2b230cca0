/**
 * Request validation by the contract's zod schemas, as Fastify's validator compiler: every route declares
 * its body (and path parameters) and Fastify checks them before the handler runs. A refusal is a 400
 * `validation_failed` saying what is wrong in words a caller can act on ("sessionToken must be a string").
 */
import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';
import { invalidRequest } from '../domain/errors.ts';

/** Says what is wrong with one field. */
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

/** Schemas whose every refusal is one fixed reason (a field with its own format, such as a duration). */
const wholeReasons = z.registry<{ reason: string }>();

/** Refuses anything `schema` does not take with the one `reason` ("by must be a duration such as ..."). */
export function withReason<S extends z.ZodType>(schema: S, reason: string): S {
  wholeReasons.add(schema, { reason });
  return schema;
}

/** Parses a request part with its contract schema; a 400 with a readable reason otherwise. */
function parseRequest<S extends z.ZodType>(schema: S, data: unknown, part = 'body'): z.infer<S> {
  if (part === 'body' && (data === undefined || data === null || typeof data !== 'object' || Array.isArray(data))) {
    throw invalidRequest('a JSON object body is required.');
  }
  // reportInput: the issue carries the value received, which tells "missing" from "of the wrong type".
  const parsed = schema.safeParse(data, { reportInput: true });
  if (!parsed.success) {
    const whole = wholeReasons.get(schema);
    throw invalidRequest(`${whole ? whole.reason : parsed.error.issues.slice(0, 3).map(describeIssue).join('; ')}.`);
  }
  return parsed.data;
}

/** Fastify's validator compiler for the routes' zod schemas (see parseRequest). */
export const contractValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    try {
      return { value: parseRequest(schema, data, httpPart) };
    } catch (error) {
      return { error: error as Error };
    }
  };
