import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** One span as OTLP/HTTP JSON carries it (ids as hex strings), with its resource's service name. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: { traceId: string; spanId: string }[];
}

export interface ReceivedExport {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface JsonValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface JsonKeyValue {
  key: string;
  value: JsonValue;
}
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: JsonKeyValue[];
  links?: { traceId: string; spanId: string }[];
}
interface JsonExport {
  resourceSpans?: {
    resource?: { attributes?: JsonKeyValue[] };
    scopeSpans?: { spans?: JsonSpan[] }[];
  }[];
}

const valueOf = (value: JsonValue): string | number | boolean =>
  value.stringValue ??
  value.boolValue ??
  (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? ''));
const attributesOf = (pairs: JsonKeyValue[] = []): Record<string, string | number | boolean> =>
  Object.fromEntries(pairs.map((pair) => [pair.key, valueOf(pair.value)]));

/**
 * An OTLP/HTTP collector for tests on 127.0.0.1: keeps every export request as received, and
 * decodes the JSON ones (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) into spans.
 */
export class OtlpReceiver {
  readonly exports: ReceivedExport[] = [];
  readonly spans: ReceivedSpan[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpReceiver> {
    const server = createServer();
    const receiver = new OtlpReceiver(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        receiver.exports.push({ path: request.url ?? '', headers: request.headers, body });
        const json = String(request.headers['content-type']).startsWith('application/json');
        if (json) receiver.take(JSON.parse(body.toString('utf8')) as JsonExport);
        response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
        response.end(json ? '{}' : '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private take(exported: JsonExport): void {
    for (const resource of exported.resourceSpans ?? []) {
      const service = String(attributesOf(resource.resource?.attributes)['service.name'] ?? '');
      for (const scope of resource.scopeSpans ?? [])
        for (const span of scope.spans ?? [])
          this.spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            links: (span.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId })),
          });
    }
  }
}
