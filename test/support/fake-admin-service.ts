import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  rawBody: string;
}

export interface CannedReply {
  status: number;
  /** Sent verbatim, so tests can check the CLI does not reformat numbers or strings. */
  body: string;
}

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
};

/**
 * Stands in for the admin API. Each CLI run uses its own bearer token, so runs can go concurrently:
 * replies are chosen and requests recorded per token.
 */
export class FakeAdminService {
  private readonly replies = new Map<string, CannedReply>();
  private readonly recorded = new Map<string, RecordedRequest[]>();
  private nextToken = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeAdminService> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const service = new FakeAdminService(server, `http://127.0.0.1:${port}`);
    server.on('request', (request, response) => {
      void readBody(request).then((rawBody) => {
        const authorization = request.headers.authorization;
        const token = authorization?.replace(/^Bearer /, '') ?? '';
        const list = service.recorded.get(token) ?? [];
        list.push({
          method: request.method ?? '',
          url: request.url ?? '',
          authorization,
          contentType: request.headers['content-type'],
          rawBody,
        });
        service.recorded.set(token, list);
        const reply = service.replies.get(token) ?? { status: 200, body: '{"ok":true}' };
        response.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
      });
    });
    return service;
  }

  /** A fresh token whose requests get this reply. */
  token(reply?: CannedReply): string {
    const token = `admin-token-${++this.nextToken}`;
    if (reply) this.replies.set(token, reply);
    return token;
  }

  /** Reply for a token the CLI obtains by other means (the admin-token file). */
  replyTo(token: string, reply: CannedReply): void {
    this.replies.set(token, reply);
  }

  requestsFor(token: string): RecordedRequest[] {
    return this.recorded.get(token) ?? [];
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve, reject) => this.server.close((error) => (error ? reject(error) : resolve())));
  }
}
