import { randomUUID } from 'node:crypto';
import { PROJECTION_ADMIN } from '../../../src/application/ports/projections.port';
import { PARTNER_EVENT_FEED, PartnerEventFeed } from '../../../src/application/ports/partner-event-feed.port';
import { SqlPartnerEventFeed } from '../../../src/infrastructure/read-models/sql-partner-event-feed';
import { PARTNER_EVENT_BODIES_AS_SENT } from '../../../src/interface/shared/partner-event-resources';
import { SqlProjectionAdmin } from '../../../src/infrastructure/projections/sql-projection-admin';
import { EventStreamClient } from '../../support/event-stream-client';
import { sqlOf } from '../../support/ledger';
import { acrossReadModelUpgrade } from '../../support/read-model-upgrade';
import { createTestDatabase } from '../../support/postgres-test-database';
import { RecordingReceiver } from '../../support/recording-receiver';
import { waitFor } from '../../support/wait-for';
import { HttpAnswer, SANDBOX_PHONES, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';

const THIRTY_SECONDS = 30_000;

describe('events feed', () => {
  let service: TestService;
  const receivers: RecordingReceiver[] = [];
  const streams: EventStreamClient[] = [];

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres', env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  });
  afterAll(async () => {
    for (const stream of streams) await stream.close();
    for (const receiver of receivers) await receiver.stop();
    await service.close();
  });

  async function partnerWithWebhook(): Promise<{ partnerId: string; key: string; receiver: RecordingReceiver }> {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Feed Partner');
    const receiver = await RecordingReceiver.start();
    receivers.push(receiver);
    const configured = await service.request('PATCH', `/v1/admin/partners/${partnerId}/settings`, {
      token: TEST_ADMIN_TOKEN,
      body: { environment: 'sandbox', webhook_url: receiver.url },
    });
    expect(configured.status).toBe(200);
    return { partnerId, key: sandboxKey, receiver };
  }

  async function topup(key: string, suffix: string): Promise<string> {
    const placed = await service.topup(
      key,
      { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount: 100, reference: `feed-${suffix}` },
      `feed-${randomUUID()}`,
    );
    expect(placed.status).toBe(200);
    return placed.body.order_id;
  }

  const events = (key: string, query = ''): Promise<HttpAnswer> => service.partner('GET', `/events${query}`, key);

  async function everyEvent(key: string, limit: number): Promise<{ bodies: Record<string, unknown>[]; pages: number }> {
    const bodies: Record<string, unknown>[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const answer = await events(key, `?limit=${limit}${after ? `&after=${after}` : ''}`);
      expect(answer.status).toBe(200);
      pages += 1;
      bodies.push(...answer.body.events);
      after = answer.body.next_cursor;
      if (!answer.body.has_more) return { bodies, pages };
    }
  }

  it('lists the same event ids and bodies as the webhooks, in the order they happened', async () => {
    const { key, receiver } = await partnerWithWebhook();
    const first = await topup(key, '0001');
    const second = await topup(key, '0002');
    const late = await topup(key, '0003');
    await service.settle();
    await service.advance(THIRTY_SECONDS);
    await topup(key, '0005');
    await service.settle();

    const answer = await events(key);
    expect(answer.status).toBe(200);
    expect(answer.body.count).toBe(3);
    expect(answer.body.has_more).toBe(false);
    expect(answer.body.events.map((event: Record<string, unknown>) => [event.order_id, event.event])).toEqual([
      [first, 'transaction.succeeded'],
      [second, 'transaction.failed'],
      [late, 'transaction.succeeded'],
    ]);
    expect(receiver.received).toHaveLength(3);
    expect(answer.body.events).toEqual(receiver.received.map((webhook) => JSON.parse(webhook.rawBody)));
    expect(answer.body.events.map((event: Record<string, unknown>) => event.event_id)).toEqual(
      receiver.received.map((webhook) => webhook.headers['x-partner-event-id']),
    );
  });

  it('pages by cursor with no gap and no repeat, and an empty page keeps the cursor to poll with', async () => {
    const { sandboxKey: key } = await service.createPartner('IN', 'Paging Partner');
    for (let index = 0; index < 5; index += 1) await topup(key, index % 2 ? '0002' : '0001');
    await service.settle();
    const whole = await everyEvent(key, 500);
    expect(whole.bodies).toHaveLength(5);
    const paged = await everyEvent(key, 2);
    expect(paged.pages).toBe(3);
    expect(paged.bodies).toEqual(whole.bodies);

    const last = await events(key, '?limit=5');
    const after = await events(key, `?after=${last.body.next_cursor}`);
    expect(after.body).toEqual({ count: 0, events: [], next_cursor: last.body.next_cursor, has_more: false });
    await topup(key, '0001');
    await service.settle();
    const next = await events(key, `?after=${last.body.next_cursor}`);
    expect(next.body.count).toBe(1);
  });

  it("never shows another partner's events, nor the other environment's", async () => {
    const one = await service.createPartner('IN', 'One');
    const other = await service.createPartner('IN', 'Other');
    await topup(one.sandboxKey, '0001');
    await service.settle();
    expect((await events(other.sandboxKey)).body).toEqual({ count: 0, events: [], next_cursor: null, has_more: false });

    const approved = await service.admin('POST', `/partners/${one.partnerId}/kyc`, { status: 'approved' });
    expect(approved.status).toBe(200);
    const live = await events(approved.body.live_api_key);
    expect(live.status).toBe(200);
    expect(live.body.count).toBe(0);
    // A cursor of one partner's feed read with another key still shows only the caller's own events.
    const cursor = (await events(one.sandboxKey)).body.next_cursor;
    expect((await events(other.sandboxKey, `?after=${cursor}`)).body.count).toBe(0);
  });

  it.each([
    ['a cursor that is not one', '?after=not-a-cursor'],
    ['a cursor of another spelling', `?after=${Buffer.from('01.2').toString('base64url')}`],
    ['a limit of zero', '?limit=0'],
    ['a limit above 500', '?limit=501'],
    ['a limit that is not a number', '?limit=ten'],
    ['an unknown filter', '?status=SUCCESS'],
  ])('%s is refused with 400 validation_failed', async (_, query) => {
    const { sandboxKey } = await service.createPartner('IN', 'Bad Input');
    const answer = await events(sandboxKey, query);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'validation_failed', detail: expect.any(String) });
  });

  it('a rebuild of the feed gives the same events under the same cursors', async () => {
    const { sandboxKey: key } = await service.createPartner('IN', 'Rebuilt');
    await topup(key, '0001');
    await topup(key, '0002');
    await service.settle();
    const pages = async (): Promise<HttpAnswer['body'][]> => [
      (await events(key, '?limit=1')).body,
      (await events(key)).body,
    ];
    const before = await pages();

    const started = await service.admin('POST', '/projections/partner-events/rebuild');
    expect(started.status).toBe(202);
    await service.app.get<SqlProjectionAdmin>(PROJECTION_ADMIN).whenFinished(started.body.rebuild_id);
    const ended = await service.admin('GET', `/projections/rebuilds/${started.body.rebuild_id}`);
    expect(ended.body).toMatchObject({ state: 'completed' });

    expect(await pages()).toEqual(before);
    expect((await events(key, `?after=${before[0].next_cursor}`)).body.events).toEqual(before[1].events.slice(1));
  });

  it('a database from before the feed gets it filled with its past events when the service starts', async () => {
    const database = await createTestDatabase('feed');
    let older: TestService | null = null;
    let upgraded: TestService | null = null;
    try {
      older = await TestService.start({ store: 'postgres', databaseUrl: database.connectionString });
      const { sandboxKey: key } = await older.createPartner('IN', 'Upgraded');
      await older.topup(
        key,
        { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 },
        `feed-${randomUUID()}`,
      );
      await older.settle();
      // As a release without the feed left it: no table, no recorded version.
      await sqlOf(older).query('DROP TABLE rm_partner_events');
      await sqlOf(older).query("DELETE FROM projection_versions WHERE name = 'partner-events'");
      await older.close();
      older = null;

      upgraded = await TestService.start({ store: 'postgres', databaseUrl: database.connectionString });
      const status = await upgraded.admin('GET', '/projections');
      const feed = (status.body.projections as { name: string; rebuilding: { rebuild_id: string } | null }[]).find(
        (projection) => projection.name === 'partner-events',
      );
      if (feed?.rebuilding)
        await upgraded.app.get<SqlProjectionAdmin>(PROJECTION_ADMIN).whenFinished(feed.rebuilding.rebuild_id);
      const answer = await upgraded.partner('GET', '/events', key);
      expect(answer.body.events.map((event: Record<string, unknown>) => event.event)).toEqual([
        'transaction.succeeded',
      ]);
    } finally {
      await older?.close();
      await upgraded?.close();
      await database.drop();
    }
  });

  it('a feed kept unique by event id alone (version 1) is rebuilt keyed by its positions only, with the same entries', async () => {
    await acrossReadModelUpgrade('partner-events', 1, {
      before: async (older) => {
        const { sandboxKey: key } = await older.createPartner('IN', 'Feed v1');
        for (const phone of ['0001', '0002'])
          await older.topup(
            key,
            { operator_id: 101, phone: SANDBOX_PHONES.IN(phone), amount: 100 },
            `feed-${randomUUID()}`,
          );
        await older.settle();
        const events = (await older.partner('GET', '/events', key)).body.events as Record<string, unknown>[];
        expect(events.map((event) => event.event)).toEqual(['transaction.succeeded', 'transaction.failed']);
        return { key, events };
      },
      // As version 1 left it: the event id unique on its own.
      downgrade: async (sql) => {
        await sql.query(
          'ALTER TABLE rm_partner_events ADD CONSTRAINT rm_partner_events_event_id_key UNIQUE (event_id)',
        );
      },
      after: async (upgraded, before, rebuilds) => {
        expect(rebuilds).toHaveLength(1);
        expect((await upgraded.partner('GET', '/events', before.key)).body.events).toEqual(before.events);
        expect(await feedIndexes(upgraded)).toEqual([PRIMARY_KEY]);
      },
    });
  });

  const PRIMARY_KEY = 'PRIMARY KEY (partner_id, environment, commit_position, prepare_position)';
  const feedIndexes = async (upgraded: TestService): Promise<string[]> =>
    (
      await sqlOf(upgraded).query<{ definition: string }>(
        `SELECT coalesce(pg_get_constraintdef(c.oid), pg_get_indexdef(i.indexrelid)) AS definition
           FROM pg_index i LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid
          WHERE i.indrelid = 'rm_partner_events'::regclass ORDER BY 1`,
      )
    ).map((row) => row.definition);

  it('a feed unique by order and event id (version 3) is rebuilt with its primary key as its only index, and still shows each event once', async () => {
    await acrossReadModelUpgrade('partner-events', 3, {
      before: async (older) => {
        const { partnerId, sandboxKey: key } = await older.createPartner('IN', 'Feed v3');
        for (const phone of ['0001', '0002', '0003'])
          await older.topup(
            key,
            { operator_id: 101, phone: SANDBOX_PHONES.IN(phone), amount: 100 },
            `feed-${randomUUID()}`,
          );
        await older.settle();
        const feed = older.app.get<PartnerEventFeed>(PARTNER_EVENT_FEED);
        const entries = await feed.latest({ partnerId, environment: 'sandbox' }, 10);
        return { key, partnerId, entries, events: (await older.partner('GET', '/events', key)).body.events };
      },
      // As version 3 left it: an index of (order, event id) beside the primary key.
      downgrade: async (sql) => {
        await sql.query(
          'ALTER TABLE rm_partner_events ADD CONSTRAINT rm_partner_events_order_id_event_id_key UNIQUE (order_id, event_id)',
        );
      },
      after: async (upgraded, before, rebuilds) => {
        expect(rebuilds).toHaveLength(1);
        expect((await upgraded.partner('GET', '/events', before.key)).body.events).toEqual(before.events);
        const feed = upgraded.app.get<PartnerEventFeed>(PARTNER_EVENT_FEED);
        expect(await feed.latest({ partnerId: before.partnerId, environment: 'sandbox' }, 10)).toEqual(before.entries);
        expect(await feedIndexes(upgraded)).toEqual([PRIMARY_KEY]);
      },
    });
  });

  /** The same JSON with its keys in reverse order: a body as version 2 stored it, told apart from one written now. */
  const storedAsVersionTwo = (body: string): string =>
    JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(body) as object).reverse()));

  it('a feed that stored its bodies (version 2) is served from them until its rebuild keeps only the facts, with the same entries', async () => {
    await acrossReadModelUpgrade('partner-events', 2, {
      before: async (older) => {
        const { partnerId, sandboxKey: key } = await older.createPartner('IN', 'Feed v2');
        for (const phone of ['0001', '0002'])
          await older.topup(
            key,
            { operator_id: 101, phone: SANDBOX_PHONES.IN(phone), amount: 100, reference: `ref-${phone}` },
            `feed-${randomUUID()}`,
          );
        await older.settle();
        const feed = older.app.get<PartnerEventFeed>(PARTNER_EVENT_FEED);
        const entries = await feed.latest({ partnerId, environment: 'sandbox' }, 10);
        expect(entries.map((entry) => entry.event)).toEqual(['transaction.succeeded', 'transaction.failed']);
        return { key, partnerId, entries, events: (await older.partner('GET', '/events', key)).body.events };
      },
      // As version 2 left it: each entry's body stored, no facts. Bodies written alike (reversed key order here),
      // so an entry read from this layout can be told from one written again from facts.
      downgrade: async (sql, before) => {
        await sql.query('ALTER TABLE rm_partner_events ADD COLUMN body text');
        for (const entry of before.entries)
          await sql.query('UPDATE rm_partner_events SET body = $1 WHERE event_id = $2', [
            storedAsVersionTwo(entry.body),
            entry.eventId,
          ]);
        await sql.query('ALTER TABLE rm_partner_events ALTER COLUMN body SET NOT NULL, DROP COLUMN facts');
        const served = await new SqlPartnerEventFeed(sql, PARTNER_EVENT_BODIES_AS_SENT).latest(
          { partnerId: before.partnerId, environment: 'sandbox' },
          10,
        );
        expect(served.map((entry) => entry.body)).toEqual(
          before.entries.map((entry) => storedAsVersionTwo(entry.body)),
        );
      },
      after: async (upgraded, before, rebuilds) => {
        expect(rebuilds).toHaveLength(1);
        expect((await upgraded.partner('GET', '/events', before.key)).body.events).toEqual(before.events);
        const feed = upgraded.app.get<PartnerEventFeed>(PARTNER_EVENT_FEED);
        const entries = await feed.latest({ partnerId: before.partnerId, environment: 'sandbox' }, 10);
        expect(entries).toEqual(before.entries);
        const columns = await sqlOf(upgraded).query<{ column_name: string }>(
          `SELECT column_name FROM information_schema.columns WHERE table_name = 'rm_partner_events' AND column_name IN ('body', 'facts')`,
        );
        expect(columns).toEqual([{ column_name: 'facts' }]);
      },
    });
  });

  it('the OpenAPI document describes the feed and the stream', async () => {
    const document = await service.request('GET', '/v1/partner/openapi.json');
    expect(document.body.paths['/v1/partner/events'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PartnerEventList',
    });
    expect(Object.keys(document.body.paths['/v1/partner/events/stream'].get.responses['200'].content)).toEqual([
      'text/event-stream',
    ]);
  });

  it('needs a valid key like every partner endpoint', async () => {
    const answer = await service.request('GET', '/v1/partner/events');
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('invalid_api_key');
  });

  describe('stream', () => {
    const open = async (key: string, headers: Record<string, string> = {}, query = ''): Promise<EventStreamClient> => {
      const stream = await EventStreamClient.open(`${service.url}/v1/partner/events/stream${query}`, {
        authorization: `Bearer ${key}`,
        ...headers,
      });
      streams.push(stream);
      return stream;
    };

    it('sends the events there are, then new ones as they happen, each with its cursor as id', async () => {
      const { sandboxKey: key } = await service.createPartner('IN', 'Streaming');
      await topup(key, '0001');
      await service.settle();
      const stream = await open(key);
      expect(stream.status).toBe(200);
      expect(stream.contentType).toMatch(/^text\/event-stream/);
      await waitFor(() => stream.events.length === 1, { what: 'the first event' });

      await topup(key, '0002');
      await service.settle();
      await waitFor(() => stream.events.length === 2, { what: 'the new event' });
      const listed = await events(key);
      expect(stream.events.map((event) => JSON.parse(event.data))).toEqual(listed.body.events);
      expect(stream.events.map((event) => event.event)).toEqual(['transaction.succeeded', 'transaction.failed']);
      expect(stream.events[1].id).toBe(listed.body.next_cursor);
    });

    it('resumes after Last-Event-ID without repeating what was received', async () => {
      const { sandboxKey: key } = await service.createPartner('IN', 'Resuming');
      await topup(key, '0001');
      await service.settle();
      const first = await open(key);
      await waitFor(() => first.events.length === 1, { what: 'the first event' });
      await first.close();

      await topup(key, '0002');
      await topup(key, '0001');
      await service.settle();
      const resumed = await open(key, { 'last-event-id': first.events[0].id ?? '' });
      await waitFor(() => resumed.events.length === 2, { what: 'the events after the last one received' });
      const all = await events(key);
      expect([...first.events, ...resumed.events].map((event) => JSON.parse(event.data))).toEqual(all.body.events);
    });

    it("a HEAD request gets the stream's headers and ends", async () => {
      const { sandboxKey: key } = await service.createPartner('IN', 'Head');
      const answer = await service.request('HEAD', '/v1/partner/events/stream', { token: key });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/);
    });

    it('refuses a bad Last-Event-ID with 400 before streaming', async () => {
      const { sandboxKey: key } = await service.createPartner('IN', 'Bad Resume');
      const answer = await service.partner('GET', '/events/stream', key, undefined, { 'last-event-id': 'garbage' });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'validation_failed', detail: expect.any(String) });
    });

    it('a stream served by another process of the same database sees the events as they reach the feed', async () => {
      const second = await TestService.start({ store: 'postgres', databaseUrl: service.databaseUrl ?? undefined });
      try {
        const { sandboxKey: key } = await service.createPartner('IN', 'Two Processes');
        const stream = await EventStreamClient.open(`${second.url}/v1/partner/events/stream`, {
          authorization: `Bearer ${key}`,
        });
        streams.push(stream);
        expect(stream.status).toBe(200);
        await topup(key, '0001');
        await service.settle();
        await waitFor(() => stream.events.length === 1, { what: 'the event written by the other process' });
        expect(JSON.parse(stream.events[0].data)).toEqual((await events(key)).body.events[0]);
        await stream.close();
      } finally {
        await second.close();
      }
    });

    it('a shutdown ends the open streams, so the service stops at once', async () => {
      const other = await TestService.start({ store: 'postgres' });
      try {
        const { sandboxKey: key } = await other.createPartner('IN', 'Shutdown');
        const stream = await EventStreamClient.open(`${other.url}/v1/partner/events/stream`, {
          authorization: `Bearer ${key}`,
        });
        streams.push(stream);
        expect(stream.status).toBe(200);
        await other.app.close();
        await waitFor(() => stream.ended, { what: 'the stream to end' });
      } finally {
        await other.close();
      }
    });
  });
});
