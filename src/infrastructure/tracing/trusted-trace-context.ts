import type { IncomingMessage, Server } from 'node:http';
import proxyaddr from 'proxy-addr';

const TRACE_HEADERS = ['traceparent', 'tracestate', 'baggage'] as const;

/**
 * A caller's W3C trace context is continued only when the connection comes from a trusted proxy
 * (TRUSTED_PROXIES), as for X-Request-Id and X-Forwarded-For; from anyone else its `traceparent`,
 * `tracestate` and `baggage` are dropped before the HTTP instrumentation reads them, so the request
 * starts a new trace (a partner cannot join, or sample, the service's traces at will).
 * Installed on the server instance, it runs before the instrumented `Server.prototype.emit`.
 */
export function continueTraceContextOnlyFromTrustedProxies(server: Server, trustedProxies: readonly string[]): void {
  const trusted = proxyaddr.compile([...trustedProxies]);
  // The prototype's emit (the one tracing instruments), called with this server below.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its own server as `this`
  const emit = server.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  server.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'request') {
      const request = args[0] as IncomingMessage;
      const peer = request.socket.remoteAddress;
      if (peer === undefined || !trusted(peer, 0)) for (const header of TRACE_HEADERS) delete request.headers[header];
    }
    return emit.call(this, event, ...args);
  } as Server['emit'];
}
