import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The status this receiver answered with. */
  answered: number;
}

/**
 * A partner's webhook endpoint for tests: a node:http server on 127.0.0.1 that records every
 * request exactly as received and answers with whatever status the test chose. It can be
 * stopped (connections then get refused) and started again on the same port.
 */
export class RecordingReceiver {
  readonly received: ReceivedWebhook[] = [];
  private status = 200;
  private server: Server | null = null;
  private waiters: { count: number; resolve: () => void }[] = [];

  private constructor(private port: number) {}

  static async start(): Promise<RecordingReceiver> {
    const receiver = new RecordingReceiver(0);
    await receiver.listen();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/recharge`;
  }

  /** The status every following request gets (503 = "down for maintenance"). */
  answerWith(status: number): void {
    this.status = status;
  }

  /** Resolves once `count` requests in total have been received. */
  receivedCount(count: number): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Stops listening: the next delivery meets a refused connection. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** Listens again, on the same port as before. */
  async restart(): Promise<void> {
    await this.listen();
  }

  private listen(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const answered = this.status;
        this.received.push({ headers: request.headers, rawBody: Buffer.concat(chunks).toString('utf8'), answered });
        response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'not now');
        this.waiters = this.waiters.filter((waiter) => {
          if (this.received.length < waiter.count) return true;
          waiter.resolve();
          return false;
        });
      });
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port;
        this.server = server;
        resolve();
      });
    });
  }
}
