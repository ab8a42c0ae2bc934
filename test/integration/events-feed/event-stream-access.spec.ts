import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStreamClient, StreamedEvent } from '../../support/event-stream-client';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { runCli } from '../../support/run-cli';
import { HttpAnswer, SANDBOX_PHONES, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';
import { waitFor, waitForAsync } from '../../support/wait-for';

const LIMITS = { EVENT_STREAMS_PER_KEY: '2', EVENT_STREAMS_PER_PARTNER: '3' };

/** The reason of the stream's last event, once it ended. */
const closedWith = (stream: EventStreamClient): { reason: string; detail: string } | null => {
  const last: StreamedEvent | undefined = stream.events[stream.events.length - 1];
  return last?.event === 'stream.closed' ? (JSON.parse(last.data) as { reason: string; detail: string }) : null;
};

/**
 * An open event stream against changes of its key's access, as an attacker holding the key
 * would see it: the stream ends within about a second of the change, says why, and sends no event
 * that reached the feed after the change was answered.
 */
describe('event streams and the access of their key', () => {
  let service: TestService;
  let scratch: string;
  const streams: EventStreamClient[] = [];

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres', runInBackground: true, env: LIMITS });
    scratch = mkdtempSync(join(tmpdir(), 'stream-access-'));
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    for (const stream of streams) await stream.close();
    await service.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  async function open(key: string, on: TestService = service): Promise<EventStreamClient> {
    const stream = await EventStreamClient.open(`${on.url}/v1/partner/events/stream`, {
      authorization: `Bearer ${key}`,
    });
    streams.push(stream);
    return stream;
  }

  async function topup(key: string): Promise<string> {
    const placed = await service.topup(
      key,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 10 },
      `stream-${randomUUID()}`,
    );
    expect(placed.status).toBe(200);
    return placed.body.order_id;
  }

  /** The order's event reached the feed (the main key reads it there). */
  const inFeed = (key: string, orderId: string) =>
    waitForAsync(
      async () =>
        ((await service.partner('GET', '/events?limit=500', key)).body.events as { order_id: string }[]).some(
          (event) => event.order_id === orderId,
        ),
      { what: `the event of ${orderId} in the feed` },
    );

  const streamedOrders = (stream: EventStreamClient): string[] =>
    stream.events
      .filter((event) => event.event !== 'stream.closed')
      .map((event) => (JSON.parse(event.data) as { order_id: string }).order_id);

  async function ended(stream: EventStreamClient, reasons: string[]): Promise<void> {
    await waitFor(() => stream.ended, { what: 'the stream to end', timeoutMs: 10_000 });
    expect(reasons).toContain(closedWith(stream)?.reason);
  }

  it('a revoked read-only key: the stream ends with key_revoked and a topup made after the revocation never arrives', async () => {
    const { sandboxKey } = await service.createPartner('IN');
    const reader = await service.partner('POST', '/keys', sandboxKey, { label: 'watcher', scope: 'read_only' });
    const before = await topup(sandboxKey);
    await inFeed(sandboxKey, before);
    const stream = await open(reader.body.api_key);
    expect(stream.status).toBe(200);
    await waitFor(() => streamedOrders(stream).includes(before), { what: 'the earlier event on the stream' });

    const revoked = await service.partner('DELETE', `/keys/${reader.body.key_id}`, sandboxKey);
    expect(revoked.status).toBe(200);
    const revokedAt = Date.now();
    expect((await service.partner('GET', '/balance', reader.body.api_key)).status).toBe(401);
    const after = await topup(sandboxKey);
    await inFeed(sandboxKey, after);

    // Fail closed: the revocation fences the environment until projected, so either reason may come first.
    await ended(stream, ['key_revoked', 'access_change_pending']);
    expect(Date.now() - revokedAt).toBeLessThan(5_000);
    expect(streamedOrders(stream)).toEqual([before]);
    expect(closedWith(stream)?.detail).toEqual(expect.any(String));
  });

  it('a main key regenerated through the CLI: its stream ends, and so do the streams of its restricted keys', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN');
    const agent = await service.partner('POST', '/keys', sandboxKey, { label: 'agent', scope: 'transact' });
    const mainStream = await open(sandboxKey);
    const agentStream = await open(agent.body.api_key);
    expect([mainStream.status, agentStream.status]).toEqual([200, 200]);
    const run = await runCli(['key', 'regenerate', partnerId, '--environment', 'sandbox'], {
      SERVICE_URL: service.url,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      DATA_DIR: join(scratch, 'no-data-here'),
    });
    expect(run.code).toBe(0);
    await ended(mainStream, ['key_revoked', 'access_change_pending']);
    await ended(agentStream, ['key_revoked', 'access_change_pending']);
  });

  it('an expired restricted key: the stream ends with key_expired', async () => {
    const { sandboxKey } = await service.createPartner('IN');
    const expiresAt = new Date(service.clock.now().getTime() + 60 * 60_000).toISOString();
    const agent = await service.partner('POST', '/keys', sandboxKey, {
      label: 'short-lived',
      scope: 'read_only',
      expires_at: expiresAt,
    });
    const stream = await open(agent.body.api_key);
    expect(stream.status).toBe(200);
    service.clock.advance(61 * 60_000);
    await ended(stream, ['key_expired']);
  });

  it('a live key whose partner is suspended: the stream ends with kyc_suspended', async () => {
    const { partnerId } = await service.createPartner('IN');
    const approved = await service.admin('POST', `/partners/${partnerId}/kyc`, { status: 'approved' });
    const stream = await open(approved.body.live_api_key);
    expect(stream.status).toBe(200);
    expect((await service.admin('POST', `/partners/${partnerId}/kyc`, { status: 'suspended' })).status).toBe(200);
    await ended(stream, ['kyc_suspended', 'access_change_pending']);
  });

  it('an allowlist that leaves the caller out: the stream ends with ip_not_allowed', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN');
    const stream = await open(sandboxKey);
    expect(stream.status).toBe(200);
    const configured = await service.admin('PATCH', `/partners/${partnerId}/settings`, {
      environment: 'sandbox',
      ip_allowlist: ['203.0.113.7'],
    });
    expect(configured.status).toBe(200);
    await ended(stream, ['ip_not_allowed', 'access_change_pending']);
  });

  it('a stream whose key stays good keeps running and gets new events', async () => {
    const { sandboxKey } = await service.createPartner('IN');
    const stream = await open(sandboxKey);
    const orderId = await topup(sandboxKey);
    await waitFor(() => streamedOrders(stream).includes(orderId), { what: 'the new event on the stream' });
    expect(stream.ended).toBe(false);
  });

  describe('how many may be open', () => {
    const expectTooMany = (answer: HttpAnswer, about: RegExp): void => {
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 429,
        body: { error: 'rate_limit_exceeded', detail: expect.stringMatching(about) },
      });
      expect(answer.headers.get('retry-after')).toBe('10');
    };
    const tryOpen = (key: string, on: TestService = service) => on.partner('GET', '/events/stream', key);

    it('at most 2 per key and 3 per partner and environment; a closed one gives its place back', async () => {
      const { sandboxKey } = await service.createPartner('IN');
      const agent = await service.partner('POST', '/keys', sandboxKey, { label: 'agent', scope: 'read_only' });
      const first = await open(sandboxKey);
      const second = await open(sandboxKey);
      expect([first.status, second.status]).toEqual([200, 200]);
      expectTooMany(await tryOpen(sandboxKey), /per API key/);
      const third = await open(agent.body.api_key);
      expect(third.status).toBe(200);
      expectTooMany(await tryOpen(agent.body.api_key), /per partner/);
      // Another partner is not affected.
      const other = await service.createPartner('IN');
      expect((await open(other.sandboxKey)).status).toBe(200);

      await first.close();
      await waitForAsync(
        async () => {
          const reopened = await EventStreamClient.open(`${service.url}/v1/partner/events/stream`, {
            authorization: `Bearer ${agent.body.api_key}`,
          });
          streams.push(reopened);
          return reopened.status === 200;
        },
        { what: 'the closed stream to give its place back' },
      );
    });

    it(
      'the limits hold across processes sharing the database',
      async () => {
        const database: TestDatabase = await createTestDatabase('stream_limits');
        const one = await TestService.start({ store: 'postgres', databaseUrl: database.connectionString, env: LIMITS });
        const two = await TestService.start({ store: 'postgres', databaseUrl: database.connectionString, env: LIMITS });
        try {
          const { sandboxKey } = await one.createPartner('IN');
          expect((await open(sandboxKey, one)).status).toBe(200);
          expect((await open(sandboxKey, two)).status).toBe(200);
          expectTooMany(await tryOpen(sandboxKey, one), /per API key/);
          expectTooMany(await tryOpen(sandboxKey, two), /per API key/);
        } finally {
          for (const stream of streams.splice(0)) await stream.close();
          await one.close();
          await two.close();
          await database.drop();
        }
      },
      SERVICE_START_TIMEOUT_MS * 2,
    );
  });
});
