import { EventStoreDbEventStore } from '../../../../src/infrastructure/event-store/eventstoredb-event-store';
import { eventStoreContract } from '../../../contract/event-store.contract';
import { FakeEventStoreDbClient } from './fake-eventstoredb-client';
import { UNTYPED_EVENTS } from '../../../support/untyped-events';

/*
 * The one contract suite, run against the adapter over an in-memory stand-in for the client that follows
 * EventStoreDB's documented append, read and subscription rules, with system events ($statsCollection)
 * and another application's events mixed into $all. It exercises the adapter's logic without a server;
 * test/contract/eventstoredb-event-store.spec.ts runs the same suite against a real one.
 */
eventStoreContract(
  'EventStoreDB adapter over an in-memory client',
  async () => {
    const client = new FakeEventStoreDbClient({ systemEventEvery: 2 });
    client.appendSystemEvent();
    client.appendForeignEvent();
    const store = new EventStoreDbEventStore(client, UNTYPED_EVENTS);
    return {
      store,
      diagnostics: store,
      byCorrelation: store,
      importer: store,
      // EventStoreDB cannot share a commit with the key table: its orders hold their keys around the append.
      keyBinding: null,
      close: () => store.close(),
    };
  },
  { keyBinding: false, idsAcrossStreams: true, oneDebitPerOrder: false },
);
