import type { IncomingMessage, Server } from 'node:http';
import proxyaddr from 'proxy-addr';

const TRACE_HEADERS = ['traceparent', 'tracestate', 'baggage'] as const;

/** `traceparent`, `tracestate` and `baggage` are kept only from a trusted proxy, so a partner cannot join the service's traces. */
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
