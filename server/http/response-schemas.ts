/**
 * JSON Schemas of the answers on the hot path, so Fastify serialises them with fast-json-stringify
 * instead of JSON.stringify. They restate contract/api.ts (the zod contract stays the truth for both
 * sides); properties are listed in the order the answers always had, so the JSON is byte for byte the
 * same (no `required` lists: fast-json-stringify writes required properties first). A property missing
 * from a schema would be dropped silently: tests compare whole bodies.
 */
const userJsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    name: { type: 'string' },
    provider: { type: 'string' },
  },
} as const;

const subscriptionJsonSchema = {
  type: ['object', 'null'],
  properties: {
    status: { type: 'string' },
    plan: { type: 'string' },
    cancelAtPeriodEnd: { type: 'boolean' },
    endDate: { type: 'string' },
  },
} as const;

/** POST /auth/verify, 200. */
export const verifyResponseJsonSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    user: userJsonSchema,
    subscription: subscriptionJsonSchema,
  },
} as const;
