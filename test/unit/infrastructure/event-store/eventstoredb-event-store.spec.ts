import { Readable } from 'node:stream';
import {
  AppendToStreamOptions,
  DeadlineExceededError,
  AppendResult as EsdbAppendResult,
  EventData,
  MaxAppendSizeExceededError,
  NO_STREAM,
} from '@eventstore/db-client';
import { v4 as uuid } from 'uuid';
import {
  DuplicateEventIdError,
  NewEvent,
  UntypedEvent,
  WrongExpectedRevisionError,
} from '../../../../src/application/ports/event-store.port';
import { claimEventData, claimStreamName } from '../../../../src/infrastructure/event-store/eventstoredb-event-ids';
import {
  EventStoreDbEventStore,
  EventStoreDbReadTimeoutError,
} from '../../../../src/infrastructure/event-store/eventstoredb-event-store';
import {
  EventStoreDbAccessDeniedError,
  EventStoreDbAppendOutcomeUnknownError,
  EventStoreDbAppendTooLargeError,
  EventStoreDbStreamDeletedError,
} from '../../../../src/infrastructure/event-store/eventstoredb-errors';
import { toEventData } from '../../../../src/infrastructure/event-store/eventstoredb-mapping';
import { FakeEventStoreDbClient, FakeEventStoreDbOptions } from './fake-eventstoredb-client';
import { waitFor } from '../../../support/wait-for';
import { UNTYPED_EVENTS } from '../../../support/untyped-events';

const newEvent = (
  type = 'Thing',
  correlationId = uuid(),
  data: Record<string, unknown> = { n: 1 },
): NewEvent<UntypedEvent> => ({
  eventId: uuid(),
  type,
  schemaVersion: 1,
  data,
  metadata: {
    partnerId: null,
    environment: 'sandbox',
    correlationId,
    causationId: null,
    actor: { type: 'system', id: 'test' },
    occurredAt: new Date().toISOString(),
  },
});

function open(
  options: ConstructorParameters<typeof EventStoreDbEventStore>[2] = {},
  server: FakeEventStoreDbOptions = {},
) {
  const client = new FakeEventStoreDbClient(server);
  const store = new EventStoreDbEventStore(client, UNTYPED_EVENTS, {
    subscriptionBackoff: { initialMs: 5, maxMs: 20, factor: 2, jitter: 0 },
    ...options,
  });
  return { client, store };
}

const idsIn = (client: FakeEventStoreDbClient, streamId: string): string[] =>
  client.log.filter((event) => event.streamId === streamId).map((event) => event.id);

describe('EventStoreDB adapter: what an append costs', () => {
  it('a fresh batch: one claim per event, one index intent per correlation id, the append, one read back', async () => {
    const { client, store } = open();
    const appends = jest.spyOn(client, 'appendToStream');
    const reads = jest.spyOn(client, 'readStream');
    const correlationId = uuid();
    await store.append(
      'order-1',
      [newEvent('A', correlationId), newEvent('B', correlationId), newEvent('C', correlationId)],
      'no_stream',
    );
    expect(appends.mock.calls.map(([stream]) => stream.split('-')[0]).sort()).toEqual([
      'correlationid',
      'eventid',
      'eventid',
      'eventid',
      'order',
    ]);
    expect(reads).toHaveBeenCalledTimes(1);
    appends.mockClear();
    reads.mockClear();
    await store.append('order-1', [newEvent('D', correlationId)], 'any');
    expect(appends).toHaveBeenCalledTimes(3);
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('a repeat: the claims exist, so the claim streams are read and verified, and nothing reaches the stream', async () => {
    const { client, store } = open();
    const events = [newEvent(), newEvent()];
    await store.append('order-1', events, 'no_stream');
    const logged = client.log.length;
    const appends = jest.spyOn(client, 'appendToStream');
    expect(await store.append('order-1', events, 0)).toEqual({ nextRevision: 1, position: null, deduplicated: true });
    expect(appends.mock.calls.filter(([stream]) => stream === 'order-1')).toEqual([]);
    expect(client.log.slice(logged).every((event) => event.type.startsWith('$'))).toBe(true);
  });
});

describe('EventStoreDB adapter: event ids across failures and races', () => {
  it('completes an append whose process died after claiming and before appending', async () => {
    const { client, store } = open();
    const event = newEvent();
    await client.appendToStream(claimStreamName(event.eventId), [claimEventData('order-1', 0)], {
      expectedRevision: NO_STREAM,
    });
    const result = await store.append('order-1', [event], 'no_stream');
    expect(result).toMatchObject({ nextRevision: 0, deduplicated: false });
    expect(await store.append('order-1', [event], 'any')).toMatchObject({ deduplicated: true });
  });

  it('refuses an id another stream claimed moments ago, and takes over a claim older than the lease', async () => {
    const event = newEvent();
    const young = open();
    await young.client.appendToStream(claimStreamName(event.eventId), [claimEventData('order-1', 0)], {
      expectedRevision: NO_STREAM,
    });
    await expect(young.store.append('order-2', [event], 'no_stream')).rejects.toEqual(
      new DuplicateEventIdError([event.eventId]),
    );
    expect(idsIn(young.client, 'order-2')).toEqual([]);

    const stale = open({ claimLeaseMs: 0 });
    await stale.client.appendToStream(claimStreamName(event.eventId), [claimEventData('order-1', 0)], {
      expectedRevision: NO_STREAM,
    });
    expect(await stale.store.append('order-2', [event], 'no_stream')).toMatchObject({ deduplicated: false });
    await expect(stale.store.append('order-1', [event], 'no_stream')).rejects.toBeInstanceOf(DuplicateEventIdError);
  });

  it('checks for ids another stream holds (its claims are by id) before reporting a missing stream to stream_exists', async () => {
    const { store } = open();
    const event = newEvent();
    await store.append('order-1', [event], 'no_stream');
    await expect(store.append('order-2', [event], 'stream_exists')).rejects.toBeInstanceOf(DuplicateEventIdError);
    await expect(store.append('order-3', [newEvent()], 'stream_exists')).rejects.toBeInstanceOf(
      WrongExpectedRevisionError,
    );
  });

  it.each(['any', 'stream_exists', 1] as const)(
    'stores twin appends of the same events once (expected %p)',
    async (expected) => {
      const { client, store } = open();
      for (let round = 0; round < 10; round++) {
        const streamId = `wallet-${round}`;
        await store.append(streamId, [newEvent(), newEvent()], 'no_stream');
        const events = [newEvent(), newEvent()];
        const outcomes = await Promise.allSettled([
          store.append(streamId, events, expected),
          store.append(streamId, events, expected),
          store.append(streamId, events, expected),
        ]);
        expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
        const stored = idsIn(client, streamId);
        expect(stored).toHaveLength(4);
        expect(new Set(stored).size).toBe(4);
      }
    },
  );

  it('turns a retry after an append of unknown outcome (deadline exceeded, yet committed) into a no-op', async () => {
    const { client, store } = open();
    const real = client.appendToStream.bind(client);
    let failNext = true;
    jest
      .spyOn(client, 'appendToStream')
      .mockImplementation(async (stream: string, events: EventData[], options: AppendToStreamOptions) => {
        const result = await real(stream, events, options);
        if (stream === 'order-1' && failNext) {
          failNext = false;
          throw new DeadlineExceededError();
        }
        return result;
      });
    const events = [newEvent(), newEvent()];
    const unknown = await store.append('order-1', events, 'no_stream').catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(EventStoreDbAppendOutcomeUnknownError);
    expect(unknown).toMatchObject({
      streamId: 'order-1',
      cause: expect.any(DeadlineExceededError),
      message: expect.stringMatching(/read the stream before deciding/),
    });
    expect(await store.append('order-1', events, 'no_stream')).toEqual({
      nextRevision: 1,
      position: null,
      deduplicated: true,
    });
    expect(idsIn(client, 'order-1')).toEqual(events.map((event) => event.eventId));
  });

  it('refuses duplicate ids inside one batch, reserved stream names and $ types', async () => {
    const { store } = open();
    const event = newEvent();
    await expect(store.append('order-1', [event, { ...event, type: 'Other' }], 'any')).rejects.toEqual(
      new DuplicateEventIdError([event.eventId]),
    );
    await expect(store.append('$settings', [newEvent()], 'any')).rejects.toThrow(/reserved/);
    await expect(store.append(claimStreamName(uuid()), [newEvent()], 'any')).rejects.toThrow(/reserved/);
    await expect(store.append('correlationid-x', [newEvent()], 'any')).rejects.toThrow(/reserved/);
    await expect(store.append('order-1', [newEvent('$metadata')], 'any')).rejects.toThrow(/reserved/);
    await expect(store.append('order-1', [], 'any')).rejects.toThrow(/at least one/);
    expect(await store.readStream('order-1', 0, 0)).toEqual([]);
  });
});

describe('EventStoreDB adapter: reading', () => {
  it('keeps claims, index intents, system and foreign events out of readAll, headPosition and countEvents', async () => {
    const { client, store } = open();
    const result = await store.append('order-1', [newEvent('A'), newEvent('B')], 'no_stream');
    client.appendSystemEvent();
    client.appendForeignEvent();
    expect((await store.readAll(null, { maxCount: 100 })).map((event) => event.type)).toEqual(['A', 'B']);
    expect(await store.headPosition()).toEqual(result.position);
    expect(await store.countEvents(null)).toBe(2);
    expect(client.log.length).toBeGreaterThan(6);
  });

  it('remembers how far it scanned past events it skips, and where the head is', async () => {
    const { client, store } = open();
    const result = await store.append('order-1', [newEvent()], 'no_stream');
    for (let i = 0; i < 300; i++) client.appendSystemEvent();
    const readAll = jest.spyOn(client, 'readAll');
    expect(await store.readAll(result.position, { maxCount: 10 })).toEqual([]);
    const firstScan = readAll.mock.calls.length;
    readAll.mockClear();
    expect(await store.readAll(result.position, { maxCount: 10 })).toEqual([]);
    expect(firstScan).toBeGreaterThan(1);
    expect(readAll).toHaveBeenCalledTimes(1);

    readAll.mockClear();
    expect(await store.headPosition()).toEqual(result.position);
    expect(readAll.mock.calls.length).toBeGreaterThan(1);
    readAll.mockClear();
    expect(await store.headPosition()).toEqual(result.position);
    expect(readAll).toHaveBeenCalledTimes(1);
  });

  it('ignores index intents whose append never happened', async () => {
    const { store } = open();
    const correlationId = uuid();
    await store.append('order-1', [newEvent('A', correlationId)], 'no_stream');
    await expect(store.append('order-1', [newEvent('B', correlationId)], 5)).rejects.toBeInstanceOf(
      WrongExpectedRevisionError,
    );
    expect((await store.readByCorrelationId(correlationId)).map((event) => event.type)).toEqual(['A']);
  });

  it('finds an event whose slot a later, failed append of the same correlation id also named', async () => {
    const { store } = open();
    const correlationId = uuid();
    await store.append('order-1', [newEvent('A', correlationId)], 'no_stream');
    // Its intent names slot 0, where A already is; the append fails.
    await expect(store.append('order-1', [newEvent('B', correlationId)], 'no_stream')).rejects.toBeInstanceOf(
      WrongExpectedRevisionError,
    );
    await store.append('order-1', [newEvent('C', correlationId)], 0);
    expect((await store.readByCorrelationId(correlationId)).map((event) => [event.type, event.revision])).toEqual([
      ['A', 0],
      ['C', 1],
    ]);
  });

  it('cancels a read that receives nothing for the idle timeout', async () => {
    const { client } = open();
    const cancel = jest.fn(async () => undefined);
    jest
      .spyOn(client, 'readStream')
      .mockImplementation(() => Object.assign(new Readable({ objectMode: true, read: () => undefined }), { cancel }));
    const store = new EventStoreDbEventStore(client, UNTYPED_EVENTS, { readIdleTimeoutMs: 30 });
    await expect(store.readStream('order-1')).rejects.toBeInstanceOf(EventStoreDbReadTimeoutError);
    expect(cancel).toHaveBeenCalled();
  });
});

describe('EventStoreDB adapter: notifications and closing', () => {
  it('wakes subscribers for appends made by another process, and after a reconnection', async () => {
    const { client, store } = open();
    const other = new EventStoreDbEventStore(client, UNTYPED_EVENTS, { watchRemoteAppends: false });
    let wakes = 0;
    const unsubscribe = store.subscribe(() => wakes++);
    await waitFor(() => client.openSubscriptions === 1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await other.append('order-1', [newEvent()], 'no_stream');
    await waitFor(() => wakes === 1);
    client.dropSubscriptions();
    await waitFor(() => wakes === 2 && client.openSubscriptions === 1);
    await other.append('order-2', [newEvent()], 'no_stream');
    await waitFor(() => wakes === 3);
    unsubscribe();
    await waitFor(() => client.openSubscriptions === 0);
    await store.close();
  });

  it('wakes listeners at once on a local append, without a subscription when remote watching is off', async () => {
    const { client, store } = open({ watchRemoteAppends: false });
    let wakes = 0;
    store.subscribe(() => wakes++);
    await store.append('order-1', [newEvent()], 'no_stream');
    expect(wakes).toBe(1);
    expect(client.openSubscriptions).toBe(0);
  });

  it('close stops the subscription and disposes the client, once', async () => {
    const { client, store } = open();
    const dispose = jest.spyOn(client, 'dispose');
    store.subscribe(() => undefined);
    await waitFor(() => client.openSubscriptions === 1);
    await store.close();
    await store.close();
    expect(client.openSubscriptions).toBe(0);
    expect(dispose).toHaveBeenCalledTimes(1);
  });
});

describe('EventStoreDB adapter: access rights', () => {
  it('refuses to start when the user may not read $all, saying which right is missing', async () => {
    const client = new FakeEventStoreDbClient({ allReadDenied: true });
    const dispose = jest.spyOn(client, 'dispose');
    const refused = await EventStoreDbEventStore.openChecked(client, UNTYPED_EVENTS).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EventStoreDbAccessDeniedError);
    expect((refused as Error).message).toBe(
      "EventStoreDB denied access to $all; the service's EventStoreDB user must be able to read $all: put it in $admins or grant read on $$$all",
    );
    expect(dispose).toHaveBeenCalledTimes(1);

    client.allReadDenied = false;
    const store = await EventStoreDbEventStore.openChecked(client, UNTYPED_EVENTS);
    expect(await store.headPosition()).toBeNull();
    await store.close();
  });

  it('reports a $all subscription refused for lack of rights as such at every retry, and recovers once granted', async () => {
    const warnings: string[] = [];
    const { client, store } = open(
      {
        onWarning: (message, error) =>
          warnings.push(`${message}: ${error instanceof Error ? error.message : String(error)}`),
      },
      { allReadDenied: true },
    );
    let wakes = 0;
    store.subscribe(() => wakes++);
    try {
      await waitFor(() => warnings.length >= 3);
      const missingRight =
        "EventStoreDB denied access to $all; the service's EventStoreDB user must be able to read $all: put it in $admins or grant read on $$$all";
      expect(warnings.slice(0, 3)).toEqual(
        [1, 2, 3].map((attempt) =>
          expect.stringMatching(
            new RegExp(`^\\$all subscription dropped \\(attempt ${attempt}\\); reconnecting in \\d+ ms: `),
          ),
        ),
      );
      expect(warnings.every((warning) => warning.endsWith(`: ${missingRight}`))).toBe(true);

      let confirmed = false;
      const subscribe = client.subscribeToAll.bind(client);
      jest
        .spyOn(client, 'subscribeToAll')
        .mockImplementation((options) => subscribe(options).on('confirmation', () => (confirmed = true)));
      client.allReadDenied = false;
      await waitFor(() => confirmed);
      const reported = warnings.length;
      await new EventStoreDbEventStore(client, UNTYPED_EVENTS, { watchRemoteAppends: false }).append(
        'order-1',
        [newEvent()],
        'no_stream',
      );
      await waitFor(() => wakes === 1);
      expect(warnings).toHaveLength(reported);
    } finally {
      await store.close();
    }
  });
});

describe('EventStoreDB adapter: positions', () => {
  it("reports the last event's own log position, not the one the append returns (its first event's)", async () => {
    const { client, store } = open();
    const real = client.appendToStream.bind(client);
    let reported: EsdbAppendResult | undefined;
    jest
      .spyOn(client, 'appendToStream')
      .mockImplementation(async (stream: string, events: EventData[], options: AppendToStreamOptions) => {
        const result = await real(stream, events, options);
        if (stream === 'order-1') reported = result;
        return result;
      });
    const result = await store.append('order-1', [newEvent('A'), newEvent('B'), newEvent('C')], 'no_stream');
    const stored = client.log.filter((event) => event.streamId === 'order-1');
    expect(result.position).toEqual(stored[2].position);
    expect(stored.every((event) => event.position.commit === event.position.prepare)).toBe(true);
    expect(reported?.position).toEqual(stored[0].position);
    expect((await store.readStream('order-1')).map((event) => event.position)).toEqual(
      stored.map((event) => event.position),
    );
  });

  it('fails loudly, naming EventStoreDB 22.6, where a position is needed and the server sends none', async () => {
    const { store } = open({}, { positionlessStreamReads: true });
    const correlationId = uuid();
    await expect(store.append('order-1', [newEvent('A', correlationId)], 'no_stream')).rejects.toThrow(
      /^stream order-1: the append was stored at revisions 0\.\.0, but the server sent no log position for it \(EventStoreDB 22\.6 or later is required\)$/,
    );
    await expect(store.readByCorrelationId(correlationId)).rejects.toThrow(
      /order-1@0: the server sent no log position \(EventStoreDB 22\.6 or later is required\)/,
    );
    await expect(store.readStream('order-1')).rejects.toThrow(/22\.6 or later is required/);
  });
});

describe('EventStoreDB adapter: append deadline', () => {
  it('asks for at most 2,000 ms per append by default, the server’s default WriteTimeoutMs', async () => {
    const { client, store } = open();
    const appends = jest.spyOn(client, 'appendToStream');
    await store.append('order-1', [newEvent(), newEvent()], 'no_stream');
    expect(appends.mock.calls.length).toBeGreaterThan(1);
    expect(
      appends.mock.calls.every(([, , options]) => options.deadline !== undefined && options.deadline <= 2_000),
    ).toBe(true);
  });

  it('does not retry an append of unknown outcome on its own, even with `any`', async () => {
    const { client, store } = open();
    const real = client.appendToStream.bind(client);
    const appends = jest
      .spyOn(client, 'appendToStream')
      .mockImplementation(async (stream: string, events: EventData[], options: AppendToStreamOptions) => {
        if (stream === 'order-1') throw new DeadlineExceededError();
        return real(stream, events, options);
      });
    await expect(store.append('order-1', [newEvent()], 'any')).rejects.toBeInstanceOf(
      EventStoreDbAppendOutcomeUnknownError,
    );
    expect(appends.mock.calls.filter(([stream]) => stream === 'order-1')).toHaveLength(1);
  });
});

describe('EventStoreDB adapter: append size', () => {
  /** Events of about `bytes` each (data, metadata and type as the server counts them). */
  const eventsOf = (count: number, bytes: number): NewEvent<UntypedEvent>[] =>
    Array.from({ length: count }, () => newEvent('Big', uuid(), { blob: 'x'.repeat(bytes - 400) }));

  it('refuses a batch over 1 MiB before writing any claim or index intent', async () => {
    const { client, store } = open();
    const refused = await store.append('order-1', eventsOf(4, 300_000), 'no_stream').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EventStoreDbAppendTooLargeError);
    expect((refused as Error).message).toMatch(
      /^stream order-1: a batch of 4 events is \d+ bytes, more than EventStoreDB's MaxAppendSize of 1048576 bytes; nothing was written$/,
    );
    expect(client.appendCalls).toBe(0);
    expect(client.log).toEqual([]);
    expect(await store.append('order-1', eventsOf(3, 300_000), 'no_stream')).toMatchObject({ nextRevision: 2 });
  });

  it('explains the server’s refusal when its MaxAppendSize is lower than the adapter was told', async () => {
    const { client, store } = open({ maxAppendSizeBytes: 4 * 1_048_576 });
    await expect(
      client.appendToStream('raw', eventsOf(4, 300_000).map(toEventData), { expectedRevision: 'any' }),
    ).rejects.toBeInstanceOf(MaxAppendSizeExceededError);
    const refused = await store.append('order-1', eventsOf(4, 300_000), 'no_stream').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EventStoreDbAppendTooLargeError);
    expect((refused as Error).message).toBe(
      'stream order-1: EventStoreDB refused the batch as larger than its MaxAppendSize (1048576 bytes); nothing was written',
    );
    expect(idsIn(client, 'order-1')).toEqual([]);
  });
});

describe('EventStoreDB adapter: hard-deleted streams', () => {
  it('never reads a tombstoned stream as empty: reads, appends and correlation reads fail saying so', async () => {
    const { client, store } = open();
    const correlationId = uuid();
    await store.append('wallet-1', [newEvent('Credited', correlationId)], 'no_stream');
    client.tombstone('wallet-1');
    await expect(store.readStream('wallet-1')).rejects.toBeInstanceOf(EventStoreDbStreamDeletedError);
    await expect(store.readStream('wallet-1')).rejects.toThrow(/stream wallet-1 was hard-deleted \(tombstoned\)/);
    await expect(store.append('wallet-1', [newEvent()], 'any')).rejects.toBeInstanceOf(EventStoreDbStreamDeletedError);
    await expect(store.append('wallet-1', [newEvent()], 0)).rejects.toBeInstanceOf(EventStoreDbStreamDeletedError);
    await expect(store.readByCorrelationId(correlationId)).rejects.toBeInstanceOf(EventStoreDbStreamDeletedError);
    expect((await store.readAll(null, { maxCount: 10 })).map((event) => event.type)).toEqual(['Credited']);
  });

  it('still reads a stream that never existed as empty', async () => {
    const { store } = open();
    expect(await store.readStream('wallet-2')).toEqual([]);
  });
});

describe('EventStoreDB adapter: event ids as the server returns them', () => {
  it('reads ids back lowercase and takes an id in another case for the same id', async () => {
    const { store } = open();
    const event = { ...newEvent(), eventId: uuid().toUpperCase() };
    await store.append('order-1', [event], 'no_stream');
    expect((await store.readStream('order-1')).map((recorded) => recorded.eventId)).toEqual([
      event.eventId.toLowerCase(),
    ]);
    expect(
      await store.append('order-1', [{ ...event, eventId: event.eventId.toLowerCase() }], 'no_stream'),
    ).toMatchObject({ deduplicated: true });
    await expect(store.append('order-2', [event], 'no_stream')).rejects.toEqual(
      new DuplicateEventIdError([event.eventId.toLowerCase()]),
    );
  });
});
