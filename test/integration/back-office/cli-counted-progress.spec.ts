import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { NDJSON, sendWithCountedProgress } from '../../../src/interface/cli/counted-progress';

/** A service stand-in that answers like GET /v1/admin/verify with Accept: application/x-ndjson. */
function ndjsonService(lines: readonly object[]): Promise<{ url: string; server: Server; accepts: string[] }> {
  const accepts: string[] = [];
  const server = createServer((request, response) => {
    accepts.push(request.headers.accept ?? '');
    response.writeHead(200, { 'content-type': `${NDJSON}; charset=utf-8` });
    for (const line of lines) response.write(`${JSON.stringify(line)}\n`);
    response.end();
  });
  return new Promise((ready) =>
    server.listen(0, '127.0.0.1', () =>
      ready({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, accepts }),
    ),
  );
}

const screen = () => {
  const written: string[] = [];
  return { written, stream: { write: (text: string) => written.push(text), isTTY: false } };
};

describe('the CLI reading long work answered as NDJSON', () => {
  it('shows the counted progress as JSON lines and returns the last line as the answer', async () => {
    const { url, server, accepts } = await ndjsonService([
      { progress: { step: 'verify', done: 1000, total: 3000 } },
      { progress: { step: 'verify', done: 3000, total: 3000 } },
      { result: { status: 200, body: { ok: true, events: 3000 } } },
    ]);
    const { written, stream } = screen();
    try {
      const result = await sendWithCountedProgress(
        url,
        'token',
        { method: 'GET', path: '/verify', headers: { accept: NDJSON } },
        stream,
        'verify',
        0,
      );
      expect(result).toEqual({ kind: 'response', status: 200, text: JSON.stringify({ ok: true, events: 3000 }) });
    } finally {
      server.close();
    }
    expect(accepts).toEqual([NDJSON]);
    const progress = written.map((line) => (JSON.parse(line) as { progress: Record<string, unknown> }).progress);
    expect(progress[0]).toMatchObject({ step: 'verify', done: 1000, total: 3000, unit: 'events', finished: false });
    expect(progress[progress.length - 1]).toMatchObject({ done: 3000, total: 3000, finished: true });
  });

  it('passes a refusal on with its status and Error body, and shows nothing for work quicker than the threshold', async () => {
    const breach = {
      error: 'invariant_breach',
      detail: '1 money invariant breach(es); see breaches',
      breaches: [{ invariant: 1 }],
    };
    const { url, server } = await ndjsonService([
      { progress: { step: 'verify', done: 10, total: 10 } },
      { result: { status: 409, body: breach } },
    ]);
    const { written, stream } = screen();
    try {
      const result = await sendWithCountedProgress(
        url,
        'token',
        { method: 'GET', path: '/verify', headers: { accept: NDJSON } },
        stream,
        'verify',
      );
      expect(result).toEqual({ kind: 'response', status: 409, text: JSON.stringify(breach) });
    } finally {
      server.close();
    }
    expect(written).toEqual([]);
  });
});
