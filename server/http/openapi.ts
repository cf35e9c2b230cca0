/**
 * The API's OpenAPI 3.1 document, built by @fastify/swagger from the routes' zod schemas and served at
 * GET /api/openapi.json. Desktop-app developers generate their clients from it, so every operation gets a
 * stable `operationId` (a generated client's method name), the deployment's own origin is its server, and
 * the way calls authenticate is said once at the root. `npx redocly lint` with the recommended rules passes
 * on it (tests/server/openapi.test.ts); docs/api.md is held equal to it by the same test.
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

const DESCRIPTION = [
  "Every failure answers {success:false,error,code}; code is one of the contract's ApiErrorCode values.",
  '',
  'Authentication travels in the JSON body, never in a header: signed-in calls carry `sessionToken` (from a',
  'sign-in or a hand-off redeem) or `idToken` (a fresh Firebase ID token, for calls that move money or',
  'end access). The document therefore declares no security scheme (`security: []`); each body schema',
  'names its token. Payment webhooks are authenticated by their provider signature header, and the relay API',
  '(GET /api/relay/v1/peers, for the VPN servers) by `Authorization: Bearer <relay token>`.',
].join('\n');

/**
 * The operation's id: the route's path under /api in camelCase, without its parameters, with `get` in front
 * of any verb but POST that the path does not say already ("/auth/google/signin" → authGoogleSignin, GET
 * "/checkout/local/:id" → getCheckoutLocal, DELETE "/auth/delete-account" → authDeleteAccount). A
 * route may name its own (`schema.operationId`). Derived rather than listed, so a new route cannot ship
 * without one.
 */
function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api(?=\/|$)/, '')
    .split('/')
    .filter((segment) => segment !== '' && !segment.startsWith(':') && !segment.startsWith('{'))
    .flatMap((segment) => segment.split(/[-_.]/))
    .filter(Boolean);
  // POST is the API's ordinary verb and goes unsaid; another is said unless the path says it already.
  const verb = method.toLowerCase();
  const verbWords = verb === 'post' || words.some((word) => word.toLowerCase() === verb) ? [] : [verb];
  return [...verbWords, ...words]
    .map((word, index) => (index === 0 ? word.toLowerCase() : word[0]!.toUpperCase() + word.slice(1).toLowerCase()))
    .join('');
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

function withOperationId(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const transformed = jsonSchemaTransform(input);
  const method = Array.isArray(input.route.method) ? input.route.method[0]! : input.route.method;
  // A route declared without a schema (the website's pages) has none to transform: it is hidden all the same.
  const schema = (transformed.schema ?? {}) as Record<string, unknown>;
  return {
    ...transformed,
    // Only the API belongs in the API's document (the website's pages are served by the same process).
    schema: {
      ...schema,
      hide: Boolean(schema['hide']) || !transformed.url.startsWith('/api/'),
      operationId: (schema['operationId'] as string | undefined) ?? operationIdOf(method, transformed.url),
    },
  };
}

export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Veil VPN API',
        description: DESCRIPTION,
        version: '1.0.0',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: publicUrl, description: 'This deployment (every path starts with /api)' }],
      security: [],
    },
    transform: withOperationId,
  });
}

/** GET /api/openapi.json: the document of `app`, registered inside the /api scope. */
export function openApiDocumentRoute(api: FastifyInstance, app: FastifyInstance): void {
  api.get('/openapi.json', { config: { rateLimitFamily: 'other' }, schema: { hide: true } }, async () => app.swagger());
}
