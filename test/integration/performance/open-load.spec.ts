import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTopupLoad } from '../../../bench/lib/open-load';

/**
 * The bench's open-model load generator must keep sending at its rate whatever the server's
 * latency (autocannon's connections each wait for an answer, so a slow server is offered less),
 * and count the sends it could not make rather than queue them.
 */
describe('the open-model load generator of the bench', () => {
  let server: Server;
  let url: string;
  let received = 0;
  const keysSeen: string[] = [];

  beforeAll(async () => {
    // Every answer takes 200 ms: a closed model with a few connections could not send 100 requests in a second.
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received += 1;
        keysSeen.push(String(request.headers['idempotency-key']));
        setTimeout(() => response.end('{}'), 200);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends every scheduled request while earlier ones are unanswered, and times each from when it was due', async () => {
    received = 0;
    const result = await openTopupLoad({ url, rate: 100, seconds: 1, keys: ['svc_test_key'] });
    expect(result.scheduled).toBe(100);
    expect(result.sent).toBe(100);
    expect(result.missed).toBe(0);
    expect(result.ok).toBe(100);
    expect(received).toBe(100);
    expect(result.peak_in_flight).toBeGreaterThanOrEqual(10);
    expect(result.p50_ms).toBeGreaterThanOrEqual(200);
  });

  it('with OPEN_LOAD_TRACE_FILE, writes each answer’s due time, latency, send lag and Idempotency-Key', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'open-load-trace-'));
    process.env.OPEN_LOAD_TRACE_FILE = join(folder, 'trace.txt');
    keysSeen.length = 0;
    try {
      const before = Date.now();
      await openTopupLoad({ url, rate: 50, seconds: 0.2, keys: ['svc_test_key'] });
      const lines = readFileSync(process.env.OPEN_LOAD_TRACE_FILE, 'utf8').trim().split('\n');
      expect(lines).toHaveLength(10);
      const traced = lines.map((line) => line.split(' '));
      expect(traced.map(([, , , key]) => key).sort()).toEqual([...keysSeen].sort());
      for (const [due, latency, lag] of traced) {
        expect(Number(due)).toBeGreaterThanOrEqual(before - 1);
        expect(Number(latency)).toBeGreaterThanOrEqual(200);
        expect(Number(lag)).toBeGreaterThanOrEqual(0);
      }
    } finally {
      delete process.env.OPEN_LOAD_TRACE_FILE;
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('counts the sends it could not make once its sockets are all waiting, instead of queueing them', async () => {
    received = 0;
    const result = await openTopupLoad({ url, rate: 100, seconds: 1, keys: ['svc_test_key'], maxInFlight: 5 });
    expect(result.peak_in_flight).toBeLessThanOrEqual(5);
    expect(result.missed).toBeGreaterThan(0);
    expect(result.sent + result.missed).toBe(result.scheduled);
    expect(received).toBe(result.sent);
  });
});
