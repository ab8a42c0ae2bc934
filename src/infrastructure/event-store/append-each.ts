import {
  DomainEvent,
  EventStore,
  StreamAppend,
  StreamAppendOutcome,
  isStreamAppendRefusal,
} from '../../application/ports/event-store.port';

/**
 * `appendMany` for a store without multi-stream commits (EventStoreDB): every stream's append runs
 * on its own, all at once, and a refusal stays in its own outcome.
 */
export function appendEach<Event extends DomainEvent>(
  store: Pick<EventStore<Event>, 'append'>,
  appends: readonly StreamAppend<Event>[],
): Promise<StreamAppendOutcome[]> {
  return Promise.all(
    appends.map((append) =>
      store.append(append.streamId, append.events, append.expected, { idempotencyKeys: append.idempotencyKeys }).then(
        (result): StreamAppendOutcome => ({ ok: true, result }),
        (error: unknown): StreamAppendOutcome => {
          if (isStreamAppendRefusal(error)) return { ok: false, error };
          throw error;
        },
      ),
    ),
  );
}
