import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { fetchReadingAgain } from '../../../src/infrastructure/providers/fetch-reading-again';

/** An upstream that drops the first request of each method without answering, then answers. */
function droppingUpstream(): { server: Server; received: string[]; url: () => URL } {
  const received: string[] = [];
  const server = createServer((request, response) => {
    received.push(request.method ?? '');
    if (received.filter((method) => method === request.method).length === 1) {
      request.socket.destroy();
      return;
    }
    response.setHeader('content-type', 'application/json');
    response.end('{"ok":true}');
  });
  const url = (): URL => new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/thing`);
  return { server, received, url };
}

describe('calls to an upstream whose connection drops without an answer', () => {
  const upstream = droppingUpstream();
  beforeAll(() => new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => upstream.server.close(() => resolve())));

  it('a read is asked once more and answered; an order (POST) is never sent twice', async () => {
    const read = await fetchReadingAgain(upstream.url(), { method: 'GET' });
    expect(read.text).toBe('{"ok":true}');
    expect(upstream.received).toEqual(['GET', 'GET']);

    await expect(fetchReadingAgain(upstream.url(), { method: 'POST', body: '{}' })).rejects.toThrow();
    expect(upstream.received).toEqual(['GET', 'GET', 'POST']);
  });

  it('a read abandoned at its deadline is not asked again', async () => {
    const before = upstream.received.length;
    const signal = AbortSignal.abort();
    await expect(fetchReadingAgain(upstream.url(), { method: 'GET', signal })).rejects.toThrow();
    expect(upstream.received.length).toBe(before);
  });
});
