import { v4 as uuid } from 'uuid';
import { EventImport } from '../../src/application/ports/event-import.port';
import { EventLogDiagnostics } from '../../src/application/ports/event-log-diagnostics.port';
import {
  DuplicateEventIdError,
  EventStore,
  HistoricalEvent,
  UntypedEvent,
  WrongExpectedRevisionError,
} from '../../src/application/ports/event-store.port';
import { EventsByCorrelation } from '../../src/application/ports/events-by-correlation.port';
import { Opened, debitOf, expectAscending, ids, newEvent, uniqueType } from './event-store-contract-support';

/** EventImport: a history recorded by another store, stored with its ids, revisions and recorded times. */
export function eventImportContract(
  opened: Opened,
  offers: { idsAcrossStreams: boolean; oneDebitPerOrder: boolean },
): void {
  describe('importing events recorded by another store (EventImport)', () => {
    let store: EventStore<UntypedEvent>;
    let importer: EventImport;
    let diagnostics: EventLogDiagnostics;
    let byCorrelation: EventsByCorrelation<UntypedEvent>;

    beforeAll(() => {
      ({ store, importer, diagnostics, byCorrelation } = opened());
    });

    const historical = (
      streamId: string,
      revision: number,
      recordedAt: string,
      type = 'Imported',
    ): HistoricalEvent => ({
      ...newEvent(type, { revision }),
      streamId,
      revision,
      recordedAt,
    });

    it('stores them in the order given, with their ids, revisions and recorded times, readable like any event', async () => {
      const [a, b] = [uuid(), uuid()];
      const type = uniqueType('Import');
      const history = [
        historical(a, 0, '2025-01-02T03:04:05.678Z', type),
        historical(b, 0, '2025-01-02T03:04:06.000Z', type),
        historical(a, 1, '2025-01-02T03:04:07.001Z', type),
        historical(a, 2, '2025-01-03T00:00:00.000Z', type),
      ];
      const before = await diagnostics.headPosition();
      await importer.importEvents(history.slice(0, 2));
      await importer.importEvents(history.slice(2));
      const all = await store.readAll(before, { maxCount: 10, eventTypes: new Set([type]) });
      // What an import keeps of each event (the store gives the positions).
      const kept = ({
        eventId,
        streamId,
        revision,
        type: t,
        schemaVersion,
        data,
        metadata,
        recordedAt,
      }: HistoricalEvent) => ({
        eventId,
        streamId,
        revision,
        type: t,
        schemaVersion,
        data,
        metadata,
        recordedAt,
      });
      expect(all.map(kept)).toEqual(history.map(kept));
      expectAscending(all);
      expect((await store.readStream(a)).map((event) => event.recordedAt)).toEqual([
        '2025-01-02T03:04:05.678Z',
        '2025-01-02T03:04:07.001Z',
        '2025-01-03T00:00:00.000Z',
      ]);
      expect(ids(await byCorrelation.readByCorrelationId(history[2].metadata.correlationId))).toEqual([
        history[2].eventId,
      ]);
      expect((await store.readLastEvent(a))?.revision).toBe(2);
      // The service appends after them as after its own events.
      expect((await store.append(a, [newEvent('After')], 2)).nextRevision).toBe(3);
    });

    it('refuses a revision out of turn with WrongExpectedRevisionError', async () => {
      const streamId = uuid();
      await importer.importEvents([historical(streamId, 0, '2025-01-01T00:00:00.000Z')]);
      await expect(importer.importEvents([historical(streamId, 2, '2025-01-01T00:00:01.000Z')])).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      await expect(importer.importEvents([historical(uuid(), 1, '2025-01-01T00:00:01.000Z')])).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      expect(await store.readStream(streamId)).toHaveLength(1);
    });

    it('refuses a batch carrying one event id twice for a stream, and stores none of it', async () => {
      const streamId = uuid();
      const twice = historical(streamId, 0, '2025-01-01T00:00:00.000Z');
      const error = await importer
        .importEvents([twice, { ...twice, revision: 1, recordedAt: '2025-01-01T00:00:01.000Z' }])
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DuplicateEventIdError);
      expect((error as DuplicateEventIdError).eventIds).toEqual([twice.eventId]);
      expect(await store.readStream(streamId)).toEqual([]);
    });

    if (offers.oneDebitPerOrder)
      it('refuses a second debit of an order, in the log already or twice in the batch, and stores none of it', async () => {
        const [order, later] = [uuid(), uuid()];
        const asHistory = (streamId: string, orderId: string): HistoricalEvent => ({
          ...debitOf(orderId),
          streamId,
          revision: 0,
          recordedAt: '2025-01-01T00:00:00.000Z',
        });
        await importer.importEvents([asHistory(uuid(), order)]);
        const again = asHistory(uuid(), order);
        const error = await importer.importEvents([again]).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(DuplicateEventIdError);
        expect((error as DuplicateEventIdError).eventIds).toEqual([again.eventId]);
        const [first, second] = [asHistory(uuid(), later), asHistory(uuid(), later)];
        const twice = await importer.importEvents([first, second]).catch((caught: unknown) => caught);
        expect((twice as DuplicateEventIdError).eventIds).toEqual([second.eventId]);
        expect(await store.readStream(again.streamId)).toEqual([]);
        expect(await store.readStream(first.streamId)).toEqual([]);
      });

    it(
      offers.idsAcrossStreams
        ? 'refuses an event id stored already in another stream with DuplicateEventIdError'
        : 'stores an event id another stream holds (ids are unique per stream)',
      async () => {
        const stored = newEvent('A');
        await store.append(uuid(), [stored], 'no_stream');
        const other = uuid();
        const imported = importer.importEvents([
          { ...stored, streamId: other, revision: 0, recordedAt: '2025-01-01T00:00:00.000Z' },
        ]);
        if (offers.idsAcrossStreams) {
          expect(await imported.catch((caught: unknown) => caught)).toBeInstanceOf(DuplicateEventIdError);
          expect(await store.readStream(other)).toEqual([]);
        } else {
          await imported;
          expect(ids(await store.readStream(other))).toEqual([stored.eventId]);
        }
      },
    );
  });
}
