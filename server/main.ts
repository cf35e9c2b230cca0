/**
 * Starts the API: configuration from the environment, the database (PGlite in DATA_DIR, or PostgreSQL
 * with DATABASE_URL) migrated, Firebase token verification, and the HTTP server. SIGINT/SIGTERM close the
 * server first (in-flight requests finish), then the database.
 */
import { enableCompileCache } from 'node:module';
import { checkProductionConfig } from './production-checks.ts';

// Node keeps the compiled code of every module it loads after this (ours and the packages') on disk, so a
// restart, a crash recovery or a second instance on the same machine skips compiling it again (issue 32).
enableCompileCache();

async function main() {
  // Before anything opens: production with an emulator, a demo project or a public secret must not start.
  const production = checkProductionConfig(process.env);
  if (production.refusal) throw new Error(production.refusal);
  // Tracing first (when configured), so pg and http are instrumented before the API's modules load them;
  // the OTel SDK is not even loaded otherwise.
  const tracing = process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? (await import('./observability/tracing.ts')).startTracing(process.env) : null;
  const { assembleApi } = await import('./assemble.ts');
  const { app, config, database } = await assembleApi(process.env, tracing ?? undefined);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: shutting down`);
    const forced = setTimeout(() => process.exit(1), 10_000);
    forced.unref();
    await app.close();
    await database.close();
    await tracing?.shutdown().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  for (const warning of production.warnings) app.log.warn(warning);
  app.log.info(
    `API ready on port ${config.port} (${database.driver}, payments: ${config.stripe ? 'Stripe' : 'local checkout'}` +
      `${config.firebaseEmulatorHost ? `, Auth emulator at ${config.firebaseEmulatorHost}` : ''})`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
