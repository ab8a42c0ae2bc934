import { EventStore } from '../../src/application/ports/event-store.port';
import { eventStoreContract } from './event-store.contract';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;

const BANNER = [
  '',
  '='.repeat(100),
  'SKIPPED: EventStoreDB contract suite — set EVENTSTORE_CONNECTION_STRING=esdb://host:2113?tls=false to run it',
  '='.repeat(100),
  '',
].join('\n');

interface EventStoreDbModule {
  EventStoreDbEventStore: { connect(connectionString: string): Promise<EventStore> } | (new (connectionString: string) => EventStore);
}

/** The adapter comes in a later change: load it only when a server is configured. */
async function openEventStoreDb(url: string): Promise<EventStore> {
  const { EventStoreDbEventStore } = require('../../src/infrastructure/event-store/eventstoredb-event-store') as EventStoreDbModule;
  return 'connect' in EventStoreDbEventStore ? EventStoreDbEventStore.connect(url) : new EventStoreDbEventStore(url);
}

if (connectionString) {
  eventStoreContract('EventStoreDB', async () => {
    const store = await openEventStoreDb(connectionString);
    return { store, close: () => store.close() };
  });
} else {
  describe('EventStoreDB event store contract', () => {
    it('EventStoreDB contract suite is skipped: EVENTSTORE_CONNECTION_STRING is not set', () => {
      console.warn(BANNER);
    });
  });
}
