/**
 * Traces (issue 23): OpenTelemetry, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set (the standard OTel
 * variables apply: OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_HEADERS, OTEL_BSP_SCHEDULE_DELAY). Spans, exported
 * over OTLP/HTTP: one per request and its handler (@fastify/otel), each PostgreSQL query (pg), and each
 * outgoing HTTP call (Stripe, Firebase; node:http). Log entries written inside a request carry its
 * trace id (the `logMixin` app.ts hands pino).
 *
 * server/main.ts imports this module only when OTEL_EXPORTER_OTLP_ENDPOINT is set: the OTel SDK and its
 * instrumentations are a good part of a second of start-up, for nothing when tracing is off (issue 32).
 *
 * What a span may say (issue 31, item 3): every span passes `withoutPersonalData` before it is exported. A
 * request's span is named by its route pattern and keeps only the method, route and status: never the raw
 * URL, query string, client address (X-Forwarded-For included, whatever TRUST_PROXY says), host or user
 * agent. An outgoing call keeps the server it went to, not its path (a Stripe checkout id is a bearer id);
 * a query keeps its SQL (parameters are never recorded); error texts are redacted as log lines are.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { context, SpanKind, trace, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { FastifyPluginCallback } from 'fastify';
import { redactText } from './redaction.ts';

export interface Tracing {
  /** Registered first on the app: a span per request, its hooks and handler. */
  plugin: FastifyPluginCallback;
  /** pino mixin: the current trace id on every entry written inside a traced request. */
  logMixin: () => Record<string, string>;
  /** Exports the spans ended so far (tests). */
  flush: () => Promise<void>;
  /** Sends the spans still buffered. */
  shutdown: () => Promise<void>;
}

/** Attributes any span may keep: what was done and how it ended, nothing about who asked. */
const KEPT_ATTRIBUTES = new Set([
  'http.method',
  'http.request.method',
  'http.route',
  'http.status_code',
  'http.response.status_code',
  'http.flavor',
  'network.protocol.version',
  'error.type',
  'fastify.type',
  'hook.name',
  'service.name',
  'db.system',
  'db.system.name',
  'db.name',
  'db.namespace',
  'db.operation',
  'db.operation.name',
  'db.statement',
  'db.query.text',
]);

/** An outgoing call (Stripe, Firebase, PostgreSQL) may also say which server it went to. */
const KEPT_FOR_OUTGOING = new Set(['server.address', 'server.port', 'net.peer.name', 'net.peer.port']);

function keptAttributes(attributes: Attributes, kind: SpanKind): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (!KEPT_ATTRIBUTES.has(key) && !(kind === SpanKind.CLIENT && KEPT_FOR_OUTGOING.has(key))) continue;
    kept[key] = typeof value === 'string' ? redactText(value) : value;
  }
  return kept;
}

/** A request span's name: its method and route pattern (the HTTP instrumentation's own), else the method alone. */
function spanName(span: ReadableSpan): string {
  if (span.kind !== SpanKind.SERVER) return redactText(span.name);
  const method = span.attributes['http.request.method'] ?? span.attributes['http.method'];
  const route = span.attributes['http.route'];
  return [method, route].filter((part) => typeof part === 'string' && part).join(' ') || 'request';
}

/** `span` as it may leave the process (see the header). */
function withoutPersonalData(span: ReadableSpan): ReadableSpan {
  return Object.create(span, {
    name: { value: spanName(span) },
    attributes: { value: keptAttributes(span.attributes, span.kind) },
    events: { value: span.events.map((event) => ({ name: event.name, time: event.time, attributes: event.attributes?.['exception.type'] ? { 'exception.type': event.attributes['exception.type'] } : {} })) },
    status: { value: span.status.message ? { ...span.status, message: redactText(span.status.message) } : span.status },
  }) as ReadableSpan;
}

/** An exporter that passes on only `withoutPersonalData` of each span. */
function redactingExporter(exporter: SpanExporter): SpanExporter {
  return {
    export: (spans, done) => exporter.export(spans.map(withoutPersonalData), done),
    shutdown: () => exporter.shutdown(),
    ...(exporter.forceFlush ? { forceFlush: () => exporter.forceFlush!() } : {}),
  };
}

/**
 * Starts tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set; call before the API's modules use pg or http.
 * `exporter` replaces the OTLP one (tests read an in-memory exporter).
 */
export function startTracing(env: Record<string, string | undefined> = process.env, exporter?: SpanExporter): Tracing | null {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !exporter) return null;
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'veil-api' }),
    // The exporter reads OTEL_EXPORTER_OTLP_ENDPOINT (adding /v1/traces) and OTEL_EXPORTER_OTLP_HEADERS itself.
    spanProcessors: [
      new BatchSpanProcessor({ exporter: redactingExporter(exporter ?? new OTLPTraceExporter()), ...(Number.isFinite(delay) && delay > 0 ? { scheduledDelayMillis: delay } : {}) }),
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
  return { plugin: fastify.plugin(), logMixin: traceIdsInLogs, flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}

function traceIdsInLogs(): Record<string, string> {
  const span = trace.getActiveSpan();
  return span ? { trace_id: span.spanContext().traceId } : {};
}
