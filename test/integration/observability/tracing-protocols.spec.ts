import { execFile } from 'node:child_process';
import { createServer, Http2Server } from 'node:http2';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OtlpReceiver } from '../../support/otlp-receiver';

/*
 * OTEL_EXPORTER_OTLP_PROTOCOL picks the exporter, with each of its three values, and nothing else
 * needs setting: a process with tracing on sends one span to a collector this test runs on
 * 127.0.0.1 (HTTP/1.1 for http/json and http/protobuf, HTTP/2 for grpc), and the span's trace id
 * is in what arrives (as hex text in JSON, as 16 raw bytes in protobuf).
 */

const ROOT = join(__dirname, '..', '..', '..');
const run = promisify(execFile);

async function probe(env: Record<string, string>): Promise<string> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, OTEL_SERVICE_NAME: 'probe' };
  delete childEnv.NODE_OPTIONS;
  const { stdout } = await run(
    process.execPath,
    ['--require', join(ROOT, 'test/support/swc-register.cjs'), 'test/support/tracing-probe.ts'],
    { cwd: ROOT, env: childEnv, timeout: 60_000 },
  );
  const { traceId } = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { traceId: string | null };
  if (!traceId) throw new Error(`the probe made no span: ${stdout}`);
  return traceId;
}

/** A gRPC endpoint reduced to what the OTLP exporter needs: the request kept, an empty OK answer. */
async function grpcCollector(): Promise<{
  server: Http2Server;
  port: number;
  received: { path: string; body: Buffer }[];
}> {
  const received: { path: string; body: Buffer }[] = [];
  const server = createServer();
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      received.push({ path: String(headers[':path']), body: Buffer.concat(chunks) });
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(Buffer.alloc(5));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, received };
}

describe('OTEL_EXPORTER_OTLP_PROTOCOL selects the OTLP exporter', () => {
  let collector: OtlpReceiver;

  beforeAll(async () => {
    collector = await OtlpReceiver.start();
  });

  afterAll(async () => {
    await collector?.stop();
  });

  it('http/json posts JSON to /v1/traces', async () => {
    const traceId = await probe({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    expect(collector.spans).toContainEqual(expect.objectContaining({ traceId, name: 'probe', service: 'probe' }));
    const sent = collector.exports.find((exported) => exported.body.toString('utf8').includes(traceId));
    expect(sent).toMatchObject({
      path: '/v1/traces',
      headers: expect.objectContaining({ 'content-type': 'application/json' }),
    });
  }, 60_000);

  it('http/protobuf (the default) posts protobuf to /v1/traces', async () => {
    const traceId = await probe({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint });
    const sent = collector.exports.find((exported) => exported.body.includes(Buffer.from(traceId, 'hex')));
    expect(sent).toMatchObject({
      path: '/v1/traces',
      headers: expect.objectContaining({ 'content-type': 'application/x-protobuf' }),
    });
    const explicit = await probe({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    });
    expect(collector.exports.some((exported) => exported.body.includes(Buffer.from(explicit, 'hex')))).toBe(true);
  }, 60_000);

  it('grpc calls the trace service over HTTP/2', async () => {
    const grpc = await grpcCollector();
    try {
      const traceId = await probe({
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${grpc.port}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      });
      const sent = grpc.received.find((call) => call.body.includes(Buffer.from(traceId, 'hex')));
      expect(sent?.path).toBe('/opentelemetry.proto.collector.trace.v1.TraceService/Export');
    } finally {
      await new Promise((resolve) => grpc.server.close(resolve));
    }
  }, 60_000);
});
