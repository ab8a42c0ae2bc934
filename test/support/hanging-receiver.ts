import { createServer, Server, Socket } from 'node:net';
import { AddressInfo } from 'node:net';

/**
 * A webhook endpoint that hangs: it accepts every connection, reads what is sent, and never
 * answers, until told to answer (then each request gets 204). It counts the connections it holds.
 */
export class HangingReceiver {
  private readonly open = new Set<Socket>();
  private answering = false;
  requests = 0;

  private constructor(private readonly server: Server) {
    server.on('connection', (socket) => {
      this.open.add(socket);
      socket.on('close', () => this.open.delete(socket));
      socket.on('error', () => undefined);
      socket.on('data', (chunk) => {
        // Counts requests by their request line; a body never starts with "POST ".
        this.requests += chunk.toString('latin1').split('POST /').length - 1;
        if (this.answering) socket.end('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n');
      });
    });
  }

  static async start(): Promise<HangingReceiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new HangingReceiver(server);
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/recharge`;
  }

  /** Connections accepted and still open (the sender has not given up on them). */
  get heldConnections(): number {
    return this.open.size;
  }

  /** From now on every request is answered at once. */
  recover(): void {
    this.answering = true;
  }

  async close(): Promise<void> {
    for (const socket of this.open) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
