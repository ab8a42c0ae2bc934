import { EventStoreDbEventStore } from '../../src/infrastructure/event-store/eventstoredb-event-store';
import { eventStoreContract } from './event-store.contract';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;

const BANNER = [
  '',
  '='.repeat(100),
  'SKIPPED: EventStoreDB contract suite — set EVENTSTORE_CONNECTION_STRING=esdb://host:2113?tls=false to run it',
  '='.repeat(100),
  '',
].join('\n');

if (connectionString) {
  // Streams and event types are random, so the suite can share a server with other data.
  eventStoreContract('EventStoreDB', async () => {
    const store = await EventStoreDbEventStore.connect(connectionString);
    return { store, close: () => store.close() };
  });
} else {
  describe('EventStoreDB event store contract', () => {
    it('EventStoreDB contract suite is skipped: EVENTSTORE_CONNECTION_STRING is not set', () => {
      console.warn(BANNER);
    });
  });
}
