import { LogEvent } from '../../domain/log-events';
import { Decider, Decision } from '../../domain/shared/decider';
import { DomainError } from '../../domain/shared/domain-error';
import { EventStream } from '../../domain/shared/event-types';
import {
  DuplicateEventIdError,
  EventMetadata,
  EventStore,
  GlobalPosition,
  WrongExpectedRevisionError,
} from '../ports/event-store.port';
import { envelope } from './event-envelope';

export type HandleResult<State, Event> =
  | { ok: true; events: Event[]; state: State; revision: number; position: GlobalPosition | null }
  | { ok: false; error: DomainError };

/** A stream's state as the caller last saw it, with its revision (-1: no stream). */
export interface KnownState<State> {
  state: State;
  revision: number;
}

export interface HandleOptions<State, Event> {
  /** The events' metadata, or a function of the loaded state when it depends on the aggregate. */
  metadata: EventMetadata | ((state: State) => EventMetadata);
  /** Event ids; deterministic for events that must never be stored twice. */
  eventId(event: Event, index: number): string;
  maxAttempts?: number;
  /**
   * The state to decide on first, instead of reading the stream (the caller has just written
   * it, or knows it is new). If it is stale, the append fails on its revision and the stream
   * is read as usual; a refusal or a no-op decided on it is decided again on the stream.
   */
  known?: KnownState<State>;
  /** Background work: the append may share a write with others made in the same turn (AppendOptions.gatherTurn). */
  gatherTurn?: boolean;
}

/**
 * Loads a stream, decides, and appends with the loaded revision; on a concurrent
 * write it reloads and decides again. For aggregates off the hot path (orders, partners).
 */
export class DeciderRunner {
  constructor(private readonly store: EventStore) {}

  async load<State, Command, Event extends LogEvent>(
    decider: Decider<State, Command, Event>,
    stream: EventStream<Event>,
  ): Promise<{ state: State; revision: number }> {
    const recorded = await this.store.readStream(stream);
    let state = decider.initialState;
    for (const event of recorded) state = decider.evolve(state, event);
    return { state, revision: recorded.length ? recorded[recorded.length - 1].revision : -1 };
  }

  handle<State, Command, Event extends LogEvent>(
    decider: Decider<State, Command, Event>,
    stream: EventStream<Event>,
    command: Command,
    options: HandleOptions<State, Event>,
  ): Promise<HandleResult<State, Event>> {
    return this.handleInTurn(decider, stream, [command], options);
  }

  /**
   * Decides the commands one after the other, each on the state the previous one's events
   * left, and appends all their events at once: either all are stored or none. A refusal of
   * any command refuses the whole.
   */
  async handleInTurn<State, Command, Event extends LogEvent>(
    decider: Decider<State, Command, Event>,
    stream: EventStream<Event>,
    commands: readonly Command[],
    options: HandleOptions<State, Event>,
  ): Promise<HandleResult<State, Event>> {
    const attempts = options.maxAttempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      const fromKnown = attempt === 1 && options.known !== undefined;
      const { state, revision } = fromKnown && options.known ? options.known : await this.load(decider, stream);
      const decision = decideInTurn(decider, commands, state);
      // Only a write proves the known state current: a refusal or a no-op is checked against the stream.
      if (fromKnown && (!decision.ok || decision.events.length === 0)) continue;
      if (!decision.ok) return decision;
      if (decision.events.length === 0) return { ok: true, events: [], state, revision, position: null };
      try {
        const result = await this.store.append(
          stream.id,
          decision.events.map((event, index) =>
            envelope(
              event,
              options.eventId(event, index),
              typeof options.metadata === 'function' ? options.metadata(state) : options.metadata,
            ),
          ),
          revision < 0 ? 'no_stream' : revision,
          options.gatherTurn ? { gatherTurn: true } : {},
        );
        if (result.deduplicated) {
          // Someone stored these very events first: report what the stream holds, not what we decided.
          const stored = await this.load(decider, stream);
          return { ok: true, events: [], state: stored.state, revision: stored.revision, position: null };
        }
        return {
          ok: true,
          events: decision.events,
          state: decision.events.reduce(decider.evolve, state),
          revision: result.nextRevision,
          position: result.position,
        };
      } catch (error) {
        // A concurrent writer won (a new revision, or the same deterministic id for a different event): decide again.
        const raced = error instanceof WrongExpectedRevisionError || error instanceof DuplicateEventIdError;
        if (!raced || attempt >= attempts) throw error;
      }
    }
  }
}

/** The commands decided one after the other, each on the state the previous one's events left; a refusal refuses all. */
export function decideInTurn<State, Command, Event>(
  decider: Decider<State, Command, Event>,
  commands: readonly Command[],
  initial: State,
): Decision<Event> {
  let state = initial;
  const events: Event[] = [];
  for (const command of commands) {
    const decision = decider.decide(command, state);
    if (!decision.ok) return decision;
    for (const event of decision.events) {
      events.push(event);
      state = decider.evolve(state, event);
    }
  }
  return { ok: true, events };
}
