import { randomUUID } from 'node:crypto';
import {
  LOG_EVENT_DECODER,
  UnreadableEventError,
  eventDecoder,
} from '../../../../src/application/ports/event-decoder.port';
import {
  NewEvent,
  RecordedEvent,
  UnexpectedEventError,
  UntypedEvent,
} from '../../../../src/application/ports/event-store.port';
import { walletStream, walletStreamId } from '../../../../src/domain/wallet/wallet.stream';
import { EventStoreDbEventStore } from '../../../../src/infrastructure/event-store/eventstoredb-event-store';
import { UNTYPED_EVENTS } from '../../../support/untyped-events';
import { FakeEventStoreDbClient } from '../../infrastructure/event-store/fake-eventstoredb-client';

const stored = (type: string, data: Record<string, unknown>, schemaVersion = 1): RecordedEvent<UntypedEvent> => ({
  eventId: randomUUID(),
  streamId: 'wallet-ptr_1-sandbox',
  revision: 0,
  type,
  schemaVersion,
  data,
  metadata: {
    partnerId: 'ptr_1',
    environment: 'sandbox',
    correlationId: 'ord_1',
    causationId: null,
    actor: { type: 'system', id: 'test' },
    occurredAt: '2026-01-01T00:00:00.000Z',
  },
  position: { commit: 1n, prepare: 1n },
  recordedAt: '2026-01-01T00:00:00.000Z',
});

const refunded = { orderId: 'ord_1', amount: '10.00', currency: 'INR', balanceAfter: '90.00', reason: 'x' };

describe("the log's decoder: where a stored event becomes an event of the log", () => {
  it('reads an event of a known type at its current version as that type, unchanged', () => {
    const event = LOG_EVENT_DECODER.decode(stored('WalletRefunded', refunded));
    expect(event.type).toBe('WalletRefunded');
    if (event.type !== 'WalletRefunded') throw new Error('not narrowed');
    expect(event.data.balanceAfter).toBe('90.00');
  });

  it('refuses a type this release does not know, rather than reading it as something else or skipping it', () => {
    expect(() => LOG_EVENT_DECODER.decode(stored('WalletAdjusted', {}))).toThrow(UnreadableEventError);
  });

  it('refuses a schema version newer than the one this release writes, and one below 1', () => {
    expect(() => LOG_EVENT_DECODER.decode(stored('WalletRefunded', refunded, 2))).toThrow(/versions 1 to 1/);
    expect(() => LOG_EVENT_DECODER.decode(stored('WalletRefunded', refunded, 0))).toThrow(UnreadableEventError);
  });

  it("brings an older version up to the current one through the type's upcasts, in order", () => {
    type Renamed = { type: 'Renamed'; data: { total: string; note: string } };
    const decoder = eventDecoder<Renamed>({
      types: { Renamed: true },
      upcasts: {
        Renamed: [({ amount, ...rest }) => ({ ...rest, total: amount }), (data) => ({ ...data, note: 'none' })],
      },
    });
    const event = decoder.decode(stored('Renamed', { amount: '5.00' }, 1));
    expect(event).toMatchObject({ schemaVersion: 3, data: { total: '5.00', note: 'none' } });
    expect(decoder.decode(stored('Renamed', { total: '5.00' }, 2)).data).toEqual({ total: '5.00', note: 'none' });
    expect(decoder.decode(stored('Renamed', { total: '1.00', note: 'kept' }, 3)).data.note).toBe('kept');
  });
});

describe('a store reading through the log decoder', () => {
  const client = new FakeEventStoreDbClient();
  const untyped = new EventStoreDbEventStore(client, UNTYPED_EVENTS, { watchRemoteAppends: false });
  const log = new EventStoreDbEventStore(client, LOG_EVENT_DECODER, { watchRemoteAppends: false });
  afterAll(async () => {
    await log.close();
  });

  const event = (type: string, data: Record<string, unknown>): NewEvent<UntypedEvent> => ({
    eventId: randomUUID(),
    type,
    schemaVersion: 1,
    data,
    metadata: stored(type, data).metadata,
  });

  it('fails a read that meets an event of a type it does not know', async () => {
    const streamId = walletStreamId(`ptr_${randomUUID()}`, 'sandbox');
    await untyped.append(streamId, [event('WalletAdjusted', { by: '1.00' })], 'no_stream');
    await expect(log.readStream(streamId)).rejects.toBeInstanceOf(UnreadableEventError);
  });

  it('fails a read of a stream, named with its union, that holds an event outside it', async () => {
    const partnerId = `ptr_${randomUUID()}`;
    await untyped.append(
      walletStreamId(partnerId, 'sandbox'),
      [event('WalletRefunded', refunded), event('KycStatusChanged', { partnerId, status: 'approved', changedAt: 'x' })],
      'no_stream',
    );
    await expect(log.readStream(walletStream(partnerId, 'sandbox'))).rejects.toBeInstanceOf(UnexpectedEventError);
    await expect(log.readLastEvent(walletStream(partnerId, 'sandbox'))).rejects.toBeInstanceOf(UnexpectedEventError);
    // By its id alone, the stream reads as events of the log.
    expect((await log.readStream(walletStreamId(partnerId, 'sandbox'))).map((read) => read.type)).toEqual([
      'WalletRefunded',
      'KycStatusChanged',
    ]);
  });
});
