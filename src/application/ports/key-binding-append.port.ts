import { LogEvent } from '../../domain/log-events';
import { Environment } from '../../domain/shared/environment';
import { AppendResult, DomainEvent, NewEvent } from './event-store.port';

/**
 * An Idempotency-Key bound, in the same commit as the events, to the order they debit. The key moves money once or
 * not at all; a repeat of the request is answered 200 from the order's debit, which the same commit stores, so the
 * answer is not kept a second time (decision 0162).
 */
export interface KeyBinding {
  partnerId: string;
  environment: Environment;
  key: string;
  requestHash: string;
  orderId: string;
  createdAt: string;
  expiresAt: string;
}

/** One string per key scope (partner, environment, key), to match bindings with each other. */
export const keyBindingId = (binding: { partnerId: string; environment: string; key: string }): string =>
  JSON.stringify([binding.partnerId, binding.environment, binding.key]);

/** One of the keys an append was to bind is bound already (or expired, not yet purged): nothing was written. */
export class IdempotencyKeyTakenError extends Error {
  constructor(readonly keys: readonly KeyBinding[]) {
    super(`an Idempotency-Key of this append is bound already: ${keys.map((binding) => binding.key).join(', ')}`);
    this.name = 'IdempotencyKeyTakenError';
  }
}

/**
 * A stream opened in the commit of the append that carries it, or not at all: an order's own stream, when its
 * provider's answer is known at placement (ProviderGateway.answerWithoutCall), written with its debit.
 */
export interface OpenedStream<Event extends DomainEvent = LogEvent> {
  streamId: string;
  events: readonly NewEvent<Event>[];
}

/**
 * Appends that bind Idempotency-Keys in the commit of their events, offered by the SQL stores (their key table
 * shares the database); where it is not bound (EventStoreDB), keys are reserved around the append.
 */
export interface KeyBindingAppend<Event extends DomainEvent = LogEvent> {
  /**
   * `append` at a known revision that also binds `keys`, all or nothing: a key bound already fails it with
   * IdempotencyKeyTakenError, a stale revision with WrongExpectedRevisionError. `opened`: new streams written in
   * the same commit; the result's position is the last event written, theirs included.
   */
  appendBindingKeys<Appended extends Event>(
    streamId: string,
    events: readonly NewEvent<Appended>[],
    expected: number | 'no_stream',
    keys: readonly KeyBinding[],
    opened?: readonly OpenedStream<Event>[],
  ): Promise<AppendResult>;
}

export const KEY_BINDING_APPEND = Symbol('KeyBindingAppend');
