/**
 * The API's OpenAPI 3.1 document, built by @fastify/swagger from the routes' zod schemas and served at
 * GET /api/openapi.json (desktop app developers read it; docs/api.md is held equal to it by a test).
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Veil VPN API',
        description: 'Every failure answers {success:false,error,code}; code is one of the contract\'s ApiErrorCode values.',
        version: '1.0.0',
      },
    },
    transform: jsonSchemaTransform,
  });
}
