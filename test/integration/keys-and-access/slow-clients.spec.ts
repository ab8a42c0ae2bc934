import { connect, Socket } from 'node:net';
import { TestService } from '../../support/test-service';

/** Short limits, so that each cut-off shows within a second or two rather than after the production defaults. */
const CUT_OFF_WITHIN_MS = 5_000;
const LIMITS = {
  REQUEST_TIMEOUT_MS: '800',
  HEADERS_TIMEOUT_MS: '400',
  KEEP_ALIVE_TIMEOUT_MS: '300',
  MAX_CONNECTIONS_PER_IP: '4',
};

interface OpenSocket {
  socket: Socket;
  received: () => string;
  closed: Promise<number>;
}

describe('slow and greedy clients are cut off', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres', env: LIMITS });
  });
  afterAll(async () => {
    await service.close();
  });

  /** A raw connection; `closed` resolves with the milliseconds it stayed open. */
  const open = async (): Promise<OpenSocket> => {
    const socket = connect(service.port, '127.0.0.1');
    socket.on('error', () => undefined);
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const startedAt = Date.now();
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - startedAt)));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    return { socket, received: () => text, closed };
  };
  /** Writes one byte every `everyMs` until the server hangs up. */
  const trickle = (socket: Socket, everyMs: number): NodeJS.Timeout =>
    setInterval(() => {
      if (socket.writable) socket.write('1');
    }, everyMs);

  it('a POST whose body trickles in a byte at a time gets 408 and is disconnected once the request timeout is over', async () => {
    const client = await open();
    client.socket.write(
      'POST /v1/partner/topup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
    );
    const drip = trickle(client.socket, 100);
    try {
      const openFor = await client.closed;
      expect(openFor).toBeLessThan(CUT_OFF_WITHIN_MS);
      expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(client.received()).toContain('"error":"validation_failed"');
    } finally {
      clearInterval(drip);
    }
  });

  it('headers that trickle in are cut off after the headers timeout', async () => {
    const client = await open();
    client.socket.write('GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const drip = trickle(client.socket, 100);
    try {
      expect(await client.closed).toBeLessThan(CUT_OFF_WITHIN_MS);
    } finally {
      clearInterval(drip);
    }
  });

  it('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const client = await open();
    client.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    const openFor = await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(openFor).toBeLessThan(CUT_OFF_WITHIN_MS);
  });

  it('one address holds at most the configured number of connections; the next is closed at once, and a place freed is usable again', async () => {
    const held = await Promise.all([open(), open(), open(), open()]);
    const refused = await open();
    expect(await refused.closed).toBeLessThan(500);
    expect(refused.received()).toBe('');
    held[0].socket.destroy();
    await held[0].closed;
    // The closed socket's place is free: a normal request goes through.
    expect((await service.request('GET', '/health')).status).toBe(200);
    for (const client of held) client.socket.destroy();
  });
});
