/**
 * Traces (issue 23): OpenTelemetry, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set (the standard OTel
 * variables apply: OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_HEADERS, OTEL_BSP_SCHEDULE_DELAY). Spans, exported
 * over OTLP/HTTP: one per request and its handler (@fastify/otel), each PostgreSQL query (pg), and each
 * outgoing HTTP call (Stripe, Firebase; node:http). Log entries written inside a request carry its
 * trace id (the `logMixin` app.ts hands pino).
 *
 * server/main.ts imports this module only when OTEL_EXPORTER_OTLP_ENDPOINT is set: the OTel SDK and its
 * instrumentations are a good part of a second of start-up, for nothing when tracing is off (issue 32).
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { FastifyPluginCallback } from 'fastify';

export interface Tracing {
  /** Registered first on the app: a span per request, its hooks and handler. */
  plugin: FastifyPluginCallback;
  /** pino mixin: the current trace id on every entry written inside a traced request. */
  logMixin: () => Record<string, string>;
  /** Sends the spans still buffered. */
  shutdown: () => Promise<void>;
}

/** Starts tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set; call before the API's modules use pg or http. */
export function startTracing(env: Record<string, string | undefined> = process.env): Tracing | null {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'veil-api' }),
    // The exporter reads OTEL_EXPORTER_OTLP_ENDPOINT (adding /v1/traces) and OTEL_EXPORTER_OTLP_HEADERS itself.
    spanProcessors: [
      new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), ...(Number.isFinite(delay) && delay > 0 ? { scheduledDelayMillis: delay } : {}) }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);

  // One span per request (named by its route); spans per hook and handler would be named after anonymous
  // plugin functions, i.e. their source, and add nothing the request span and its queries do not show.
  const fastify = new FastifyOtelInstrumentation({ recordExceptions: false, instrumentHooks: false, instrumentHandler: false });
  for (const instrumentation of [new HttpInstrumentation(), new PgInstrumentation(), fastify]) {
    instrumentation.setTracerProvider(provider);
    instrumentation.enable();
  }
  // The instrumentations patch a module when it is required: require pg here (its prototype is shared
  // with the ESM import), and let ESM imports of node:http see the patched functions.
  createRequire(import.meta.url)('pg');
  createRequire(import.meta.url)('node:http');
  createRequire(import.meta.url)('node:https');
  syncBuiltinESMExports();
  return { plugin: fastify.plugin(), logMixin: traceIdsInLogs, shutdown: () => provider.shutdown() };
}

function traceIdsInLogs(): Record<string, string> {
  const span = trace.getActiveSpan();
  return span ? { trace_id: span.spanContext().traceId } : {};
}
