import { Server } from 'node:http';
import { Socket } from 'node:net';
import proxyaddr from 'proxy-addr';
import { ServiceConfig } from '../../../config/service-config';

// Node's deadlines for slow clients (headers, whole request: a trickling client gets 408) and idle keep-alive.
// Node checks them on a sweep, every 30 s by default; sweeping a few times per deadline keeps them close.
export function slowClientOptions(config: ServiceConfig): {
  http: {
    requestTimeout: number;
    headersTimeout: number;
    keepAliveTimeout: number;
    connectionsCheckingInterval: number;
  };
  requestTimeout: number;
  keepAliveTimeout: number;
} {
  const connectionsCheckingInterval = Math.max(25, Math.min(1_000, Math.floor(config.headersTimeoutMs / 4)));
  return {
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      connectionsCheckingInterval,
    },
    // Fastify sets these two on the server again after creating it: the same values.
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
  };
}

// Closes at once a connection from an address already holding `max`, counted by socket before any request.
// A trusted proxy's connections carry many clients and are not counted; the proxy limits each (decision 0135).
export function limitConnectionsPerAddress(server: Server, max: number, trustedProxies: readonly string[] = []): void {
  if (max <= 0) return;
  const fromProxy = trustedProxies.length > 0 ? proxyaddr.compile([...trustedProxies]) : null;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if (fromProxy && socket.remoteAddress !== undefined && fromProxy(socket.remoteAddress, 0)) return;
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
