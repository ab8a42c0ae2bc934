import { DomainError } from './domain-error';

/** The outcome of a decision: the events to append, or the business rule that refused the command. */
export type Decision<Event> = { ok: true; events: Event[] } | { ok: false; error: DomainError };

export const accept = <Event>(...events: Event[]): Decision<Event> => ({ ok: true, events });
export const refuse = <Event>(error: DomainError): Decision<Event> => ({ ok: false, error });

/** An aggregate written as plain functions: given events, when command, then events. */
export interface Decider<State, Command, Event> {
  initialState: State;
  decide: (command: Command, state: State) => Decision<Event>;
  evolve: (state: State, event: Event) => State;
}

export function fold<State, Event>(
  decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
  events: Iterable<Event>,
): State {
  let state = decider.initialState;
  for (const event of events) state = decider.evolve(state, event);
  return state;
}
