import { v4 as uuid } from 'uuid';
import { EventStore, NewEvent, UntypedEvent } from '../../src/application/ports/event-store.port';
import { EventsByCorrelation } from '../../src/application/ports/events-by-correlation.port';
import { Opened, expectAscending, newEvent } from './event-store-contract-support';

/** EventsByCorrelation: the log indexed by the correlation id of each event's metadata. */
export function eventsByCorrelationContract(opened: Opened): void {
  describe("reading an order's events by correlation id (EventsByCorrelation)", () => {
    let store: EventStore<UntypedEvent>;
    let byCorrelation: EventsByCorrelation<UntypedEvent>;

    beforeAll(() => {
      ({ store, byCorrelation } = opened());
    });

    it('returns the events of one correlation id from every stream, in global order', async () => {
      const correlationId = uuid();
      const correlated = (type: string): NewEvent<UntypedEvent> => {
        const event = newEvent(type);
        return { ...event, metadata: { ...event.metadata, correlationId } };
      };
      const wallet = uuid();
      const order = uuid();
      await store.append(wallet, [correlated('Debited')], 'no_stream');
      await store.append(order, [correlated('Initiated'), newEvent('Unrelated')], 'no_stream');
      await store.append(wallet, [newEvent('OtherDebit'), correlated('Refunded')], 0);
      const read = await byCorrelation.readByCorrelationId(correlationId);
      expectAscending(read);
      expect(read.map((event) => [event.type, event.streamId])).toEqual([
        ['Debited', wallet],
        ['Initiated', order],
        ['Refunded', wallet],
      ]);
      expect(await byCorrelation.readByCorrelationId(uuid())).toEqual([]);
    });
  });
}
