import { v4 as uuid } from 'uuid';
import { EventLogDiagnostics } from '../../src/application/ports/event-log-diagnostics.port';
import {
  AppendResult,
  DuplicateEventIdError,
  EventStore,
  ExpectedRevision,
  GlobalPosition,
  NewEvent,
  RecordedEvent,
  UntypedEvent,
  WrongExpectedRevisionError,
  comparePositions,
} from '../../src/application/ports/event-store.port';
import { subscribeToAll } from '../support/catch-up-subscription';
import { waitFor } from '../support/wait-for';
import { eventImportContract } from './event-import.contract';
import { eventLogDiagnosticsContract } from './event-log-diagnostics.contract';
import {
  OpenedStore,
  appendError,
  debitOf,
  expectAscending,
  ids,
  newEvent,
  uniqueType,
} from './event-store-contract-support';
import { eventsByCorrelationContract } from './events-by-correlation.contract';
import { keyBindingAppendContract } from './key-binding-append.contract';

export { OpenedStore } from './event-store-contract-support';

/**
 * What a store offers beyond the port's promises. `keyBinding`: Idempotency-Keys bound in the commit of their events
 * (the SQL stores). `idsAcrossStreams`: an event id is refused in a stream when another stream holds it
 * (EventStoreDB's claims are by id); the port promises uniqueness within a stream only (decision 0158).
 */
export interface StoreOffers {
  keyBinding: boolean;
  idsAcrossStreams: boolean;
  /** An order's `WalletDebited` is refused when the log holds one for the order already (the SQL stores, decision 0174). */
  oneDebitPerOrder: boolean;
}

/**
 * The behaviour every store adapter must show, port by port: the EventStore (append, read, readAll, subscribe)
 * here, and the ports the adapter serves beside it (the log's diagnostics, the correlation index, imports, and,
 * where it has it, key binding). Streams and event types are random, so the store may hold other data.
 */
export function eventStoreContract(name: string, open: () => Promise<OpenedStore>, offers: StoreOffers): void {
  describe(`${name} event store contract`, () => {
    let opened: OpenedStore;
    let store: EventStore<UntypedEvent>;
    let diagnostics: EventLogDiagnostics;

    beforeAll(async () => {
      opened = await open();
      ({ store, diagnostics } = opened);
    });

    afterAll(async () => {
      await opened?.close();
    });

    describe('appending with an expected revision', () => {
      it('appends to a new stream with no_stream and numbers the first event 0', async () => {
        const streamId = uuid();
        const result = await store.append(streamId, [newEvent('A'), newEvent('B')], 'no_stream');
        expect(result.nextRevision).toBe(1);
        expect(result.deduplicated).toBe(false);
        expect(result.position).not.toBeNull();
        expect((await store.readStream(streamId)).map((event) => event.revision)).toEqual([0, 1]);
      });

      it('appends with the right numeric expected revision and reports the last event as nextRevision', async () => {
        const streamId = uuid();
        await store.append(streamId, [newEvent('A')], 'no_stream');
        const result = await store.append(streamId, [newEvent('B'), newEvent('C')], 0);
        const events = await store.readStream(streamId);
        expect(result.nextRevision).toBe(2);
        expect(events[events.length - 1].revision).toBe(result.nextRevision);
        expect(result.position).toEqual(events[events.length - 1].position);
      });

      it('appends with stream_exists to an existing stream', async () => {
        const streamId = uuid();
        await store.append(streamId, [newEvent('A')], 'no_stream');
        const result = await store.append(streamId, [newEvent('B')], 'stream_exists');
        expect(result.nextRevision).toBe(1);
      });

      it.each<[string, ExpectedRevision, number | 'no_stream']>([
        ['a revision behind', 0, 1],
        ['a revision ahead', 5, 1],
        ['no_stream on an existing stream', 'no_stream', 1],
      ])('rejects %s with WrongExpectedRevisionError and writes nothing', async (_case, expected, actual) => {
        const streamId = uuid();
        await store.append(streamId, [newEvent('A'), newEvent('B')], 'no_stream');
        const head = await diagnostics.headPosition();
        const error = await appendError(store, streamId, [newEvent('C')], expected);
        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect(error).toMatchObject({ streamId, expected, actual });
        expect(await store.readStream(streamId)).toHaveLength(2);
        expect(
          await store
            .readAll(head, { maxCount: 10, eventTypes: new Set(['C']) })
            .then((events) => events.filter((event) => event.streamId === streamId)),
        ).toEqual([]);
      });

      it('rejects stream_exists and numeric revisions on a missing stream and leaves it missing', async () => {
        const streamId = uuid();
        for (const expected of ['stream_exists', 0] as const) {
          const error = await appendError(store, streamId, [newEvent('A')], expected);
          expect(error).toBeInstanceOf(WrongExpectedRevisionError);
          expect(error).toMatchObject({ streamId, expected, actual: 'no_stream' });
        }
        expect(await store.readStream(streamId)).toEqual([]);
        expect((await store.append(streamId, [newEvent('A')], 'no_stream')).nextRevision).toBe(0);
      });

      it('always appends with any, to a new stream and to an existing one', async () => {
        const streamId = uuid();
        expect((await store.append(streamId, [newEvent('A')], 'any')).nextRevision).toBe(0);
        expect((await store.append(streamId, [newEvent('B'), newEvent('C')], 'any')).nextRevision).toBe(2);
        expect(await store.readStream(streamId)).toHaveLength(3);
      });

      it('appends with any from two concurrent writers to a new stream', async () => {
        const streams = Array.from({ length: 5 }, () => uuid());
        const appends = streams.flatMap((streamId) => [
          store.append(streamId, [newEvent('A')], 'any'),
          store.append(streamId, [newEvent('B')], 'any'),
        ]);
        const outcomes = await Promise.allSettled(appends);
        expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
        for (const streamId of streams)
          expect((await store.readStream(streamId)).map((event) => event.revision)).toEqual([0, 1]);
      });

      it('lets exactly one of two concurrent appends with the same expected revision succeed', async () => {
        const streamId = uuid();
        await store.append(streamId, [newEvent('A')], 'no_stream');
        const outcomes = await Promise.allSettled([
          store.append(streamId, [newEvent('B')], 0),
          store.append(streamId, [newEvent('C')], 0),
        ]);
        const failed = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
        expect(failed).toHaveLength(1);
        expect(failed[0].reason).toBeInstanceOf(WrongExpectedRevisionError);
        expect(await store.readStream(streamId)).toHaveLength(2);
      });

      it('lets exactly one of two concurrent no_stream appends create the stream', async () => {
        const streamId = uuid();
        const outcomes = await Promise.allSettled([
          store.append(streamId, [newEvent('A')], 'no_stream'),
          store.append(streamId, [newEvent('B')], 'no_stream'),
        ]);
        const failed = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
        expect(failed).toHaveLength(1);
        expect(failed[0].reason).toBeInstanceOf(WrongExpectedRevisionError);
        expect(await store.readStream(streamId)).toHaveLength(1);
      });
    });

    describe('many appends at known revisions at once (writers may share one commit)', () => {
      it('gives each of 40 concurrent appends to different streams its own revisions and a position in the global order', async () => {
        const streams = Array.from({ length: 40 }, () => uuid());
        for (const streamId of streams) await store.append(streamId, [newEvent('Opened')], 'no_stream');
        const appended = await Promise.all(
          streams.map((streamId) => store.append(streamId, [newEvent('X'), newEvent('Y')], 0)),
        );
        for (const [index, streamId] of streams.entries()) {
          expect(appended[index]).toEqual(expect.objectContaining({ nextRevision: 2, deduplicated: false }));
          const events = await store.readStream(streamId);
          expect(events.map((event) => [event.revision, event.type])).toEqual([
            [0, 'Opened'],
            [1, 'X'],
            [2, 'Y'],
          ]);
          expect(comparePositions(events[2].position, appended[index].position!)).toBe(0);
          expect(comparePositions(events[1].position, events[2].position)).toBe(-1);
        }
      });

      it('refuses only the stale appends among concurrent ones, and writes every other', async () => {
        const streams = Array.from({ length: 20 }, () => uuid());
        for (const streamId of streams) await store.append(streamId, [newEvent('A'), newEvent('B')], 'no_stream');
        const stale = new Set(streams.filter((_, index) => index % 3 === 0));
        const outcomes = await Promise.allSettled(
          streams.map((streamId) => store.append(streamId, [newEvent('C')], stale.has(streamId) ? 0 : 1)),
        );
        for (const [index, streamId] of streams.entries()) {
          const outcome = outcomes[index];
          if (stale.has(streamId)) {
            expect(outcome.status).toBe('rejected');
            const reason = (outcome as PromiseRejectedResult).reason as WrongExpectedRevisionError;
            expect(reason).toBeInstanceOf(WrongExpectedRevisionError);
            expect(reason.actual).toBe(1);
            expect(await store.readStream(streamId)).toHaveLength(2);
          } else {
            expect(outcome).toEqual({ status: 'fulfilled', value: expect.objectContaining({ nextRevision: 2 }) });
            expect(await store.readStream(streamId)).toHaveLength(3);
          }
        }
      });

      it('treats repeated appends mixed among new ones as no-ops, and appends the new ones', async () => {
        const streams = Array.from({ length: 12 }, () => uuid());
        const first = streams.map(() => newEvent('First'));
        for (const streamId of streams) await store.append(streamId, [newEvent('Opened')], 'no_stream');
        await Promise.all(streams.slice(0, 6).map((streamId, index) => store.append(streamId, [first[index]], 0)));
        const outcomes = await Promise.all(streams.map((streamId, index) => store.append(streamId, [first[index]], 0)));
        outcomes.forEach((outcome, index) => expect(outcome.deduplicated).toBe(index < 6));
        for (const [index, streamId] of streams.entries())
          expect(ids(await store.readStream(streamId))[1]).toBe(first[index].eventId);
      });
    });

    describe('background appends that may share a write with the others of their turn (gatherTurn)', () => {
      it('writes each at its expected revision and refuses only the one whose revision moved', async () => {
        const streams = Array.from({ length: 6 }, () => uuid());
        for (const streamId of streams) await store.append(streamId, [newEvent('Opened')], 'no_stream');
        const outcomes = await Promise.allSettled(
          streams.map((streamId, index) =>
            store.append(streamId, [newEvent('Settled')], index === 3 ? 5 : 0, { gatherTurn: true }),
          ),
        );
        for (const [index, streamId] of streams.entries()) {
          const outcome = outcomes[index];
          if (index === 3) {
            expect(outcome.status).toBe('rejected');
            if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(WrongExpectedRevisionError);
            expect(await store.readStream(streamId)).toHaveLength(1);
          } else {
            expect(outcome).toEqual({ status: 'fulfilled', value: expect.objectContaining({ nextRevision: 1 }) });
            expect((await store.readStream(streamId)).map((event) => event.type)).toEqual(['Opened', 'Settled']);
          }
        }
      });
    });

    describe('appends to many streams made in one turn (one statement and one commit in the SQL stores)', () => {
      const inOneTurn = (
        appends: { streamId: string; events: NewEvent<UntypedEvent>[]; expected: number | 'no_stream' }[],
      ): Promise<PromiseSettledResult<AppendResult>[]> =>
        Promise.allSettled(
          appends.map(({ streamId, events, expected }) =>
            store.append(streamId, events, expected, { gatherTurn: true }),
          ),
        );

      it('writes every stream at its expected revision, new ones included, each with its own result', async () => {
        const existing = Array.from({ length: 5 }, () => uuid());
        for (const streamId of existing) await store.append(streamId, [newEvent('Opened')], 'no_stream');
        const fresh = Array.from({ length: 5 }, () => uuid());
        const outcomes = await inOneTurn([
          ...existing.map((streamId) => ({ streamId, events: [newEvent('X'), newEvent('Y')], expected: 0 })),
          ...fresh.map((streamId) => ({ streamId, events: [newEvent('Opened')], expected: 'no_stream' as const })),
        ]);
        expect(outcomes).toHaveLength(10);
        for (const [index, streamId] of [...existing, ...fresh].entries()) {
          const outcome = outcomes[index];
          if (outcome.status === 'rejected') throw outcome.reason;
          const events = await store.readStream(streamId);
          expect(outcome.value.nextRevision).toBe(index < 5 ? 2 : 0);
          expect(events).toHaveLength(index < 5 ? 3 : 1);
          expect(comparePositions(events[events.length - 1].position, outcome.value.position as GlobalPosition)).toBe(
            0,
          );
        }
      });

      it('refuses only the streams whose revision moved or that exist already, and writes the others', async () => {
        const streams = Array.from({ length: 9 }, () => uuid());
        for (const streamId of streams) await store.append(streamId, [newEvent('A'), newEvent('B')], 'no_stream');
        const outcomes = await inOneTurn(
          streams.map((streamId, index) => ({
            streamId,
            events: [newEvent('C')],
            expected: index % 3 === 0 ? 0 : index % 3 === 1 ? ('no_stream' as const) : 1,
          })),
        );
        for (const [index, streamId] of streams.entries()) {
          const outcome = outcomes[index];
          if (index % 3 === 2) {
            expect(outcome).toEqual({
              status: 'fulfilled',
              value: expect.objectContaining({ nextRevision: 2, deduplicated: false }),
            });
            expect(await store.readStream(streamId)).toHaveLength(3);
          } else {
            expect(outcome.status).toBe('rejected');
            if (outcome.status === 'fulfilled') continue;
            expect(outcome.reason).toBeInstanceOf(WrongExpectedRevisionError);
            expect((outcome.reason as WrongExpectedRevisionError).actual).toBe(1);
            expect(await store.readStream(streamId)).toHaveLength(2);
          }
        }
      });

      if (offers.oneDebitPerOrder)
        it("refuses a second debit of an order, under another id or in another stream, and writes the others' appends", async () => {
          const [wallet, otherWallet, plain] = [uuid(), uuid(), uuid()];
          const order = uuid();
          await store.append(wallet, [debitOf(order)], 'no_stream');
          const outcomes = await inOneTurn([
            { streamId: wallet, events: [debitOf(order)], expected: 0 },
            { streamId: otherWallet, events: [debitOf(order)], expected: 'no_stream' },
            { streamId: plain, events: [debitOf(uuid())], expected: 'no_stream' },
          ]);
          expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
          for (const outcome of outcomes.slice(0, 2))
            if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(DuplicateEventIdError);
          expect(await store.readStream(wallet)).toHaveLength(1);
          expect(await store.readStream(otherWallet)).toEqual([]);
          expect(await store.readStream(plain)).toHaveLength(1);
        });

      it('treats a repeated append as a no-op beside one that reuses its event id in another stream', async () => {
        const [repeatedStream, elsewhere, plain] = [uuid(), uuid(), uuid()];
        const stored = newEvent('Stored');
        await store.append(repeatedStream, [stored], 'no_stream');
        const outcomes = await inOneTurn([
          { streamId: repeatedStream, events: [stored], expected: 'no_stream' },
          { streamId: elsewhere, events: [{ ...newEvent('Other'), eventId: stored.eventId }], expected: 'no_stream' },
          { streamId: plain, events: [newEvent('Plain')], expected: 'no_stream' },
        ]);
        expect(outcomes[0]).toEqual({
          status: 'fulfilled',
          value: expect.objectContaining({ deduplicated: true, nextRevision: 0 }),
        });
        if (offers.idsAcrossStreams) {
          expect(outcomes[1].status).toBe('rejected');
          if (outcomes[1].status === 'rejected') expect(outcomes[1].reason).toBeInstanceOf(DuplicateEventIdError);
          expect(await store.readStream(elsewhere)).toHaveLength(0);
        } else {
          expect(outcomes[1]).toEqual({
            status: 'fulfilled',
            value: expect.objectContaining({ deduplicated: false, nextRevision: 0 }),
          });
          expect(ids(await store.readStream(elsewhere))).toEqual([stored.eventId]);
        }
        expect(ids(await store.readStream(repeatedStream))).toEqual([stored.eventId]);
        expect(outcomes[2]).toEqual({
          status: 'fulfilled',
          value: expect.objectContaining({ deduplicated: false, nextRevision: 0 }),
        });
        expect(ids(await store.readStream(plain))).toHaveLength(1);
      });
    });

    describe('idempotent appends', () => {
      it.each<ExpectedRevision>(['no_stream', 'stream_exists', 'any', 0, 1, 7])(
        'treats a repeat of stored event ids in the same stream as a no-op when expecting %p',
        async (expected) => {
          const streamId = uuid();
          const events = [newEvent('A'), newEvent('B')];
          await store.append(streamId, events, 'no_stream');
          const head = await diagnostics.headPosition();
          const repeat = await store.append(streamId, events, expected);
          expect(repeat).toEqual({ nextRevision: 1, position: null, deduplicated: true });
          expect(ids(await store.readStream(streamId))).toEqual(ids(events));
          expect(await diagnostics.headPosition()).toEqual(head);
        },
      );

      it("treats an order's debit repeated after its wallet moved on as a no-op", async () => {
        const wallet = uuid();
        const debited = debitOf(uuid());
        await store.append(wallet, [debited], 'no_stream');
        await store.append(wallet, [newEvent('WalletCredited')], 0);
        expect(await store.append(wallet, [debited], 'any')).toEqual({
          nextRevision: 1,
          position: null,
          deduplicated: true,
        });
        expect(await store.append(wallet, [debited], 1)).toEqual(expect.objectContaining({ deduplicated: true }));
        expect((await store.readStream(wallet)).map((event) => event.type)).toEqual([
          'WalletDebited',
          'WalletCredited',
        ]);
      });

      if (offers.idsAcrossStreams)
        it('rejects an event id already stored in another stream with DuplicateEventIdError', async () => {
          const event = newEvent('A');
          await store.append(uuid(), [event], 'no_stream');
          const other = uuid();
          const error = await appendError(store, other, [event], 'any');
          expect(error).toBeInstanceOf(DuplicateEventIdError);
          expect((error as DuplicateEventIdError).eventIds).toEqual([event.eventId]);
          expect(await store.readStream(other)).toEqual([]);
        });
      else
        it('stores an event id another stream holds, and treats its repeat there as a no-op', async () => {
          const event = newEvent('A');
          const first = uuid();
          await store.append(first, [event], 'no_stream');
          const other = uuid();
          expect(await store.append(other, [event], 'any')).toEqual(
            expect.objectContaining({ deduplicated: false, nextRevision: 0 }),
          );
          expect(await store.append(other, [event], 'any')).toEqual({
            nextRevision: 0,
            position: null,
            deduplicated: true,
          });
          expect(ids(await store.readStream(first))).toEqual([event.eventId]);
          expect(ids(await store.readStream(other))).toEqual([event.eventId]);
        });

      it('rejects a batch that mixes a stored event id with new ones and writes none of it', async () => {
        const streamId = uuid();
        const stored = newEvent('A');
        await store.append(streamId, [stored], 'no_stream');
        const error = await appendError(store, streamId, [stored, newEvent('B')], 'any');
        expect(error).toBeInstanceOf(DuplicateEventIdError);
        expect(await store.readStream(streamId)).toHaveLength(1);
      });
    });

    describe('reading a stream', () => {
      it('returns the events in order with type, schema version, data and metadata intact', async () => {
        const streamId = uuid();
        const events = [
          newEvent('Opened', { amount: '10.50', nested: { list: [1, 'two', null] } }),
          newEvent('Closed', { reason: 'done' }),
        ];
        events[1] = {
          ...events[1],
          schemaVersion: 3,
          metadata: {
            ...events[1].metadata,
            environment: 'live',
            causationId: events[0].eventId,
            actor: { type: 'operator', id: 'op-1' },
          },
        };
        await store.append(streamId, events, 'no_stream');
        const read = await store.readStream(streamId);
        expect(
          read.map(({ eventId, type, schemaVersion, data, metadata }) => ({
            eventId,
            type,
            schemaVersion,
            data,
            metadata,
          })),
        ).toEqual(events);
        expect(read.map((event) => [event.streamId, event.revision])).toEqual([
          [streamId, 0],
          [streamId, 1],
        ]);
        expectAscending(read);
        for (const event of read) expect(Number.isNaN(Date.parse(event.recordedAt))).toBe(false);
      });

      it('returns a stream of more than ten events in revision order', async () => {
        const streamId = uuid();
        const events = Array.from({ length: 12 }, (_, i) => newEvent('Numbered', { i }));
        await store.append(streamId, events.slice(0, 7), 'no_stream');
        await store.append(streamId, events.slice(7), 6);
        const read = await store.readStream(streamId);
        expect(read.map((event) => event.revision)).toEqual(events.map((_, i) => i));
        expect(ids(read)).toEqual(ids(events));
        expect((await store.readStream(streamId, 9)).map((event) => event.revision)).toEqual([9, 10, 11]);
      });

      it('reads from a given revision onwards', async () => {
        const streamId = uuid();
        const events = [newEvent('A'), newEvent('B'), newEvent('C'), newEvent('D')];
        await store.append(streamId, events, 'no_stream');
        expect(ids(await store.readStream(streamId, 2))).toEqual([events[2].eventId, events[3].eventId]);
        expect(await store.readStream(streamId, 4)).toEqual([]);
      });

      it('reads the newest event of a stream as soon as its append has returned, and none for an unknown stream', async () => {
        const streamId = uuid();
        const events = Array.from({ length: 12 }, (_, index) => newEvent('Counted', { index }));
        await store.append(streamId, events.slice(0, 11), 'no_stream');
        await store.append(streamId, [events[11]], 10);
        const newest = await store.readLastEvent(streamId);
        expect(newest).toEqual(
          expect.objectContaining({ eventId: events[11].eventId, revision: 11, data: { index: 11 } }),
        );
        expect(await store.readLastEvent(uuid())).toBeNull();
      });

      it('reads an unknown stream as empty', async () => {
        expect(await store.readStream(uuid())).toEqual([]);
      });

      it('reads a long stream page by page with maxCount', async () => {
        const streamId = uuid();
        const events = Array.from({ length: 7 }, (_, i) => newEvent(`P${i}`));
        await store.append(streamId, events, 'no_stream');
        expect((await store.readStream(streamId, 0, 3)).map((event) => event.revision)).toEqual([0, 1, 2]);
        expect((await store.readStream(streamId, 6, 3)).map((event) => event.revision)).toEqual([6]);
        expect(await store.readStream(streamId, 7, 3)).toEqual([]);
      });
    });

    describe('reading all events', () => {
      it('returns the events after a position in global order', async () => {
        const type = uniqueType('Order');
        const before = await diagnostics.headPosition();
        const first = [newEvent(type), newEvent(type)];
        const second = [newEvent(type)];
        const a = uuid();
        const b = uuid();
        await store.append(a, first, 'no_stream');
        await store.append(b, second, 'no_stream');
        await store.append(a, [newEvent(type)], 1);
        const all = await store.readAll(before, { maxCount: 1_000 });
        const mine = all.filter((event) => event.type === type);
        expectAscending(all);
        expect(mine.map((event) => [event.streamId, event.revision])).toEqual([
          [a, 0],
          [a, 1],
          [b, 0],
          [a, 2],
        ]);
        if (before) for (const event of all) expect(comparePositions(event.position, before)).toBe(1);
        const afterSecond = await store.readAll(mine[1].position, { maxCount: 1_000, eventTypes: new Set([type]) });
        expect(afterSecond.map((event) => [event.streamId, event.revision])).toEqual([
          [b, 0],
          [a, 2],
        ]);
      });

      it('returns at most maxCount events', async () => {
        const type = uniqueType('Count');
        const before = await diagnostics.headPosition();
        await store.append(uuid(), [newEvent(type), newEvent(type), newEvent(type)], 'no_stream');
        const page = await store.readAll(before, { maxCount: 2 });
        expect(page).toHaveLength(2);
        const filtered = await store.readAll(before, { maxCount: 2, eventTypes: new Set([type]) });
        expect(filtered).toHaveLength(2);
      });

      it('returns only events of the requested types', async () => {
        const wanted = uniqueType('Wanted');
        const other = uniqueType('Other');
        const before = await diagnostics.headPosition();
        const streamId = uuid();
        await store.append(
          streamId,
          [newEvent(other), newEvent(wanted), newEvent(other), newEvent(wanted)],
          'no_stream',
        );
        const read = await store.readAll(before, { maxCount: 100, eventTypes: new Set([wanted]) });
        expect(read.map((event) => [event.type, event.revision])).toEqual([
          [wanted, 1],
          [wanted, 3],
        ]);
      });

      it('sees every event exactly once when paging with the last position', async () => {
        const type = uniqueType('Paging');
        const before = await diagnostics.headPosition();
        const appended: string[] = [];
        for (let i = 0; i < 5; i++) {
          const events = Array.from({ length: i === 2 ? 12 : 2 }, () => newEvent(type));
          await store.append(uuid(), events, 'no_stream');
          appended.push(...ids(events));
        }
        const seen: RecordedEvent<UntypedEvent>[] = [];
        let after: GlobalPosition | null = before;
        for (let page = 0; page < 100; page++) {
          const batch: RecordedEvent<UntypedEvent>[] = await store.readAll(after, { maxCount: 3 });
          if (batch.length === 0) break;
          seen.push(...batch);
          after = batch[batch.length - 1].position;
        }
        expectAscending(seen);
        expect(new Set(ids(seen)).size).toBe(seen.length);
        expect(ids(seen.filter((event) => event.type === type))).toEqual(appended);
      });
    });

    describe('subscribing: catching up from a checkpoint and following new appends', () => {
      it('delivers exactly the events after a stored checkpoint, then new ones as they are appended, in order', async () => {
        const type = uniqueType('Subscribed');
        const streamId = uuid();
        const events = Array.from({ length: 7 }, (_, i) => newEvent(type, { i }));
        await store.append(streamId, events.slice(0, 5), 'no_stream');
        const checkpoint = (await store.readStream(streamId, 1))[0].position;
        const delivered: RecordedEvent<UntypedEvent>[] = [];
        let inFlight = 0;
        let overlapped = false;
        const subscription = subscribeToAll(
          store,
          { from: checkpoint, eventTypes: new Set([type]), batchSize: 2, pollIntervalMs: 20 },
          async (event) => {
            overlapped ||= inFlight > 0;
            inFlight++;
            await new Promise((resolve) => setTimeout(resolve, 1));
            delivered.push(event);
            inFlight--;
          },
        );
        try {
          await waitFor(() => delivered.length >= 3);
          await store.append(streamId, [events[5]], 4);
          await store.append(streamId, [events[6]], 5);
          await waitFor(() => delivered.length >= 5);
        } finally {
          await subscription.stop();
        }
        expect(ids(delivered)).toEqual(ids(events.slice(2)));
        expect(overlapped).toBe(false);
        expect(subscription.position).toEqual(delivered[delivered.length - 1].position);
      });

      it('reads at once after a local append instead of waiting for the poll', async () => {
        const reads: number[] = [];
        const counting: Pick<EventStore<UntypedEvent>, 'readAll' | 'subscribe'> = {
          readAll: (after, options) => {
            reads.push(Date.now());
            return store.readAll(after, options);
          },
          subscribe: (listener) => store.subscribe(listener),
        };
        const subscription = subscribeToAll(
          counting,
          { from: await diagnostics.headPosition(), pollIntervalMs: 60_000 },
          async () => undefined,
        );
        try {
          await waitFor(() => reads.length === 1);
          await new Promise((resolve) => setTimeout(resolve, 20));
          await store.append(uuid(), [newEvent('Wake')], 'no_stream');
          await waitFor(() => reads.length >= 2, 2_000);
        } finally {
          await subscription.stop();
        }
      });

      it('resolves stop only after the handler in progress has finished', async () => {
        const type = uniqueType('Stop');
        const before = await diagnostics.headPosition();
        await store.append(uuid(), [newEvent(type), newEvent(type)], 'no_stream');
        let release: () => void = () => undefined;
        const handled: RecordedEvent<UntypedEvent>[] = [];
        let started = 0;
        const subscription = subscribeToAll(
          store,
          { from: before, eventTypes: new Set([type]), pollIntervalMs: 10 },
          async (event) => {
            started++;
            await new Promise<void>((resolve) => (release = resolve));
            handled.push(event);
          },
        );
        await waitFor(() => started === 1);
        let stopped = false;
        const stopping = subscription.stop().then(() => (stopped = true));
        await new Promise((resolve) => setTimeout(resolve, 30));
        expect(stopped).toBe(false);
        release();
        await stopping;
        expect(started).toBe(1);
        expect(subscription.position).toEqual(handled[0].position);
      });

      it('ends at the last handled event when the handler fails, and stop reports the failure', async () => {
        const type = uniqueType('Failing');
        const before = await diagnostics.headPosition();
        const streamId = uuid();
        await store.append(streamId, [newEvent(type), newEvent(type), newEvent(type)], 'no_stream');
        const handled: RecordedEvent<UntypedEvent>[] = [];
        const errors: unknown[] = [];
        const subscription = subscribeToAll(
          store,
          { from: before, eventTypes: new Set([type]), pollIntervalMs: 10, onError: (error) => errors.push(error) },
          async (event) => {
            if (event.revision === 1) throw new Error('projection failed');
            handled.push(event);
          },
        );
        await waitFor(() => errors.length === 1);
        await expect(subscription.stop()).rejects.toThrow('projection failed');
        expect(handled.map((event) => event.revision)).toEqual([0]);
        expect(subscription.position).toEqual(handled[0].position);
      });
    });

    eventLogDiagnosticsContract(() => opened);
    eventsByCorrelationContract(() => opened);
    eventImportContract(() => opened, offers);
    if (offers.keyBinding) keyBindingAppendContract(() => opened);
  });
}
