import { IncomingMessage, Server } from 'node:http';
import { Socket } from 'node:net';
import { continueTraceContextOnlyFromTrustedProxies } from '../../../../src/infrastructure/tracing/trusted-trace-context';
import { tracingWanted } from '../../../../src/infrastructure/tracing/tracing-wanted';
import { traceIdOf } from '../../../../src/application/ports/trace-context.port';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

/** The headers the request handler sees after the guard, for a request from `peer`. */
function headersSeenFrom(peer: string, trustedProxies: string[]): Record<string, unknown> {
  const server = new Server();
  let seen: Record<string, unknown> = {};
  server.on('request', (request: IncomingMessage) => (seen = { ...request.headers }));
  continueTraceContextOnlyFromTrustedProxies(server, trustedProxies);
  const socket = new Socket();
  Object.defineProperty(socket, 'remoteAddress', { value: peer });
  const request = new IncomingMessage(socket);
  request.headers = { traceparent: TRACEPARENT, tracestate: 'vendor=1', baggage: 'k=v', 'x-other': 'kept' };
  server.emit('request', request, {});
  return seen;
}

describe('a caller’s trace context', () => {
  it('is continued from a trusted proxy', () => {
    expect(headersSeenFrom('10.0.0.5', ['10.0.0.0/8'])).toMatchObject({
      traceparent: TRACEPARENT,
      tracestate: 'vendor=1',
      baggage: 'k=v',
    });
  });

  it('is dropped from anyone else, so the request starts a new trace', () => {
    const seen = headersSeenFrom('203.0.113.9', ['10.0.0.0/8']);
    expect(seen).toEqual({ 'x-other': 'kept' });
    expect(headersSeenFrom('127.0.0.1', [])).toEqual({ 'x-other': 'kept' });
  });
});

describe('tracing is on only when the standard OTEL_* variables ask for an exporter', () => {
  it.each([
    [{}, false],
    [{ OTEL_SERVICE_NAME: 'partner-service' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_TRACES_EXPORTER: 'console' }, true],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    [{ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
  ])('%j -> %s', (env, on) => {
    expect(tracingWanted(env)).toBe(on);
  });

  it('reads the trace id out of a traceparent, and nothing out of anything else', () => {
    expect(traceIdOf(TRACEPARENT)).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(traceIdOf(undefined)).toBeNull();
    expect(traceIdOf('not-a-traceparent')).toBeNull();
  });
});
