import { v4 as uuid } from 'uuid';
import { EventImport } from '../../src/application/ports/event-import.port';
import { EventLogDiagnostics } from '../../src/application/ports/event-log-diagnostics.port';
import {
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  UntypedEvent,
  comparePositions,
} from '../../src/application/ports/event-store.port';
import { EventsByCorrelation } from '../../src/application/ports/events-by-correlation.port';
import { KeyBinding, KeyBindingAppend } from '../../src/application/ports/key-binding-append.port';

/**
 * A store adapter under the contract: its EventStore and the ports it serves beside it, each as the service binds
 * it (to the same adapter). `keyBinding` only for the stores that bind Idempotency-Keys in the commit of their
 * events (the SQL stores).
 */
export interface OpenedStore {
  store: EventStore<UntypedEvent>;
  diagnostics: EventLogDiagnostics;
  byCorrelation: EventsByCorrelation<UntypedEvent>;
  importer: EventImport;
  keyBinding: KeyBindingAppend<UntypedEvent> | null;
  close(): Promise<void>;
}

/** The opened store, once the suite's `beforeAll` has opened it. */
export type Opened = () => OpenedStore;

export const newEvent = (type: string, data: Record<string, unknown> = {}): NewEvent<UntypedEvent> => ({
  eventId: uuid(),
  type,
  schemaVersion: 1,
  data,
  metadata: {
    partnerId: uuid(),
    environment: 'sandbox',
    correlationId: uuid(),
    causationId: null,
    actor: { type: 'system', id: 'event-store-contract' },
    occurredAt: new Date().toISOString(),
  },
});

/** An event of an order as the service appends it: its correlation id is its order. */
export const eventOfOrder = (type: string, orderId: string): NewEvent<UntypedEvent> => {
  const event = newEvent(type, { orderId });
  return { ...event, metadata: { ...event.metadata, correlationId: orderId } };
};

/** An order's debit as the wallet appends it. */
export const debitOf = (orderId: string): NewEvent<UntypedEvent> => eventOfOrder('WalletDebited', orderId);

/** A type no other test or data in the store uses, so reads can filter on it. */
export const uniqueType = (label: string): string => `Contract${label}.${uuid()}`;

export async function appendError(
  store: EventStore<UntypedEvent>,
  streamId: string,
  events: NewEvent<UntypedEvent>[],
  expected: ExpectedRevision,
): Promise<unknown> {
  try {
    await store.append(streamId, events, expected);
  } catch (error) {
    return error;
  }
  throw new Error(`append to ${streamId} with expected ${String(expected)} succeeded`);
}

export const ids = (events: readonly { eventId: string }[]): string[] => events.map((event) => event.eventId);

export const keyBinding = (key: string, orderId = uuid()): KeyBinding => ({
  partnerId: 'ptr_contract',
  environment: 'sandbox',
  key,
  requestHash: 'hash-of-the-request',
  orderId,
  createdAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
});

export function expectAscending(events: readonly RecordedEvent<UntypedEvent>[]): void {
  for (let i = 1; i < events.length; i++) {
    expect(comparePositions(events[i - 1].position, events[i].position)).toBe(-1);
  }
}
