import {
  Link,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  createContextKey,
  isSpanContextValid,
  trace,
} from '@opentelemetry/api';
import { parseTraceParent } from '@opentelemetry/core';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import FastifyOtelInstrumentation from '@fastify/otel';
import { ClientRequest } from 'node:http';
import { useTraceContextSource } from '../../application/ports/trace-context.port';
import { SpanDescription, installSpanRunner } from './tracing';
import { withoutSecrets } from '../security/without-secrets';

const UNTRACED_PATHS = /^\/(health|ready|metrics)(\/|\?|$)/;
const KINDS = { internal: SpanKind.INTERNAL, client: SpanKind.CLIENT, consumer: SpanKind.CONSUMER } as const;
const MAX_LINKS = 32;
const ORIGIN = createContextKey('partner-service.origin-traceparent');

/** The OpenTelemetry Node SDK, configured by the standard OTEL_* variables only; loaded only when an exporter is configured. */
export function startTracingSdk(): void {
  const sdk = new NodeSDK({
    // The service's name when OTEL_SERVICE_NAME does not give one (the SDK's default says nothing).
    ...(process.env.OTEL_SERVICE_NAME ? {} : { serviceName: 'partner-service' }),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.test(request.url ?? ''),
        // A webhook URL's query string may carry the partner's own token: outgoing spans keep the URL without it.
        requestHook: (span, request) => {
          if (!(request instanceof ClientRequest)) return;
          const url = `${request.protocol}//${request.host}${request.path.split('?')[0]}`;
          span.setAttribute('http.url', url);
          span.setAttribute('url.full', url);
        },
      }),
      new UndiciInstrumentation(),
      // Statements inside a request, job or projection run; not the pollers' idle queries.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      new FastifyOtelInstrumentation({ registerOnInitialization: true }),
    ],
  });
  sdk.start();
  const tracer = trace.getTracer('partner-service');
  useTraceContextSource({
    currentTraceparent,
    currentOriginTraceparent: () => context.active().getValue(ORIGIN) as string | undefined,
  });
  installSpanRunner({
    run<T>(name: string, description: SpanDescription, work: () => Promise<T>): Promise<T> {
      const links = linksOf(description.links ?? []);
      const origin = description.links?.find((link) => link !== undefined);
      const parent = description.root
        ? origin && links.length > 0
          ? ROOT_CONTEXT.setValue(ORIGIN, origin)
          : ROOT_CONTEXT
        : context.active();
      const options = {
        kind: KINDS[description.kind ?? 'internal'],
        attributes: description.attributes,
        links,
        root: description.root === true,
      };
      return tracer.startActiveSpan(name, options, parent, async (span) => {
        try {
          return await work();
        } catch (error) {
          span.setStatus({ code: SpanStatusCode.ERROR, message: statusMessageOf(error) });
          throw error;
        } finally {
          span.end();
        }
      });
    },
    currentTraceId() {
      const span = trace.getActiveSpan()?.spanContext();
      return span && isSpanContextValid(span) ? span.traceId : undefined;
    },
    shutdown: () => sdk.shutdown(),
  });
}

function currentTraceparent(): string | undefined {
  const span = trace.getActiveSpan()?.spanContext();
  if (!span || !isSpanContextValid(span)) return undefined;
  return `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

function linksOf(traceparents: readonly (string | undefined)[]): Link[] {
  const seen = new Set<string>();
  const links: Link[] = [];
  for (const traceparent of traceparents) {
    if (!traceparent || seen.has(traceparent) || links.length >= MAX_LINKS) continue;
    seen.add(traceparent);
    const linked = parseTraceParent(traceparent);
    if (linked && isSpanContextValid(linked)) links.push({ context: linked });
  }
  return links;
}

function statusMessageOf(error: unknown): string {
  return withoutSecrets(error instanceof Error ? error.message : String(error)).slice(0, 500);
}
