import { EventStoreDBClient, StreamNotFoundError } from '@eventstore/db-client';
import { v4 as uuid } from 'uuid';
import { NewEvent, UntypedEvent } from '../../src/application/ports/event-store.port';
import { claimStreamName } from '../../src/infrastructure/event-store/eventstoredb-event-ids';
import { EventStoreDbEventStore, collect } from '../../src/infrastructure/event-store/eventstoredb-event-store';
import { withClientSettings } from '../../src/infrastructure/event-store/eventstoredb-connection-string';
import {
  EventStoreDbAppendTooLargeError,
  EventStoreDbStreamDeletedError,
} from '../../src/infrastructure/event-store/eventstoredb-errors';
import { eventStoreContract } from './event-store.contract';
import { UNTYPED_EVENTS } from '../support/untyped-events';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;

const BANNER = [
  '',
  '='.repeat(100),
  'SKIPPED: EventStoreDB contract suite — set EVENTSTORE_CONNECTION_STRING=esdb://host:2113?tls=false to run it',
  '='.repeat(100),
  '',
].join('\n');

const newEvent = (data: Record<string, unknown> = {}): NewEvent<UntypedEvent> => ({
  eventId: uuid(),
  type: `ContractEsdb.${uuid()}`,
  schemaVersion: 1,
  data,
  metadata: {
    partnerId: null,
    environment: 'sandbox',
    correlationId: uuid(),
    causationId: null,
    actor: { type: 'system', id: 'eventstoredb-contract' },
    occurredAt: new Date().toISOString(),
  },
});

if (connectionString) {
  // Streams and event types are random, so the suite can share a server with other data.
  eventStoreContract(
    'EventStoreDB',
    async () => {
      const store = await EventStoreDbEventStore.connect(connectionString, UNTYPED_EVENTS);
      return {
        store,
        diagnostics: store,
        byCorrelation: store,
        importer: store,
        keyBinding: null,
        close: () => store.close(),
      };
    },
    { keyBinding: false, idsAcrossStreams: true, oneDebitPerOrder: false },
  );

  describe('EventStoreDB adapter on a real server (default MaxAppendSize of 1 MiB)', () => {
    let store: EventStoreDbEventStore<UntypedEvent>;
    let client: EventStoreDBClient;

    beforeAll(async () => {
      store = await EventStoreDbEventStore.connect(connectionString, UNTYPED_EVENTS, { watchRemoteAppends: false });
      client = EventStoreDBClient.connectionString(withClientSettings(connectionString));
    });

    afterAll(async () => {
      await store?.close();
      await client?.dispose();
    });

    it('fails reads of and appends to a hard-deleted stream as such, never as an empty stream', async () => {
      const streamId = `contract-${uuid()}`;
      await store.append(streamId, [newEvent()], 'no_stream');
      await client.tombstoneStream(streamId);
      await expect(store.readStream(streamId)).rejects.toBeInstanceOf(EventStoreDbStreamDeletedError);
      await expect(store.append(streamId, [newEvent()], 'any')).rejects.toBeInstanceOf(EventStoreDbStreamDeletedError);
      await expect(store.append(streamId, [newEvent()], 0)).rejects.toBeInstanceOf(EventStoreDbStreamDeletedError);
    });

    it('refuses a batch over MaxAppendSize before writing any claim, and explains the server’s own refusal', async () => {
      const events = Array.from({ length: 4 }, () => newEvent({ blob: 'x'.repeat(300_000) }));
      await expect(store.append(`contract-${uuid()}`, events, 'no_stream')).rejects.toBeInstanceOf(
        EventStoreDbAppendTooLargeError,
      );
      for (const event of events) {
        await expect(
          collect(client.readStream(claimStreamName(event.eventId)), 10_000, 'claim read'),
        ).rejects.toBeInstanceOf(StreamNotFoundError);
      }
      const unaware = await EventStoreDbEventStore.connect(connectionString, UNTYPED_EVENTS, {
        watchRemoteAppends: false,
        maxAppendSizeBytes: 8 * 1_048_576,
      });
      try {
        await expect(unaware.append(`contract-${uuid()}`, events, 'no_stream')).rejects.toBeInstanceOf(
          EventStoreDbAppendTooLargeError,
        );
      } finally {
        await unaware.close();
      }
    });
  });
} else {
  describe('EventStoreDB event store contract', () => {
    it('EventStoreDB contract suite is skipped: EVENTSTORE_CONNECTION_STRING is not set', () => {
      console.warn(BANNER);
    });
  });
}
