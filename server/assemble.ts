/**
 * The API as `server/main.ts` runs it: configuration from an environment, the database it names (PGlite in
 * DATA_DIR, or PostgreSQL with DATABASE_URL), the Firebase verifier, and `buildApp` with the built website
 * from STATIC_DIR. One function, so a test that must see what `npm start` serves (the OpenAPI document
 * beside the site's own routes) builds the app the same way rather than a way of its own.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import type { Database } from './domain/store.ts';
import { createFirebaseVerifier } from './identity/verifier.ts';
import type { Tracing } from './observability/tracing.ts';

export interface AssembledApi {
  app: FastifyInstance;
  config: Config;
  database: Database;
}

export async function assembleApi(env: Record<string, string | undefined>, tracing?: Pick<Tracing, 'plugin' | 'logMixin'>): Promise<AssembledApi> {
  const config = loadConfig(env);
  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
    { migrations: config.migrations },
  );
  const verifier = createFirebaseVerifier(config.firebaseProjectId, config.firebaseEmulatorHost);
  const app = await buildApp({ config, database, verifier, ...(tracing ? { tracing } : {}) });
  return { app, config, database };
}
