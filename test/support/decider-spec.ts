import { Decider, Decision, fold } from '../../src/domain/shared/decider';
import { DomainErrorCode } from '../../src/domain/shared/domain-error';

/**
 * Given events / when command / then events, for any decider.
 *
 *   spec(walletDecider).given(credited('1000.00')).when(debit('100.00')).then(debited('100.00', '900.00'));
 *
 * `then` asserts the exact events; `thenNothingHappens` an accepted command with no events
 * (a repeat that changes nothing); `thenRefused` the business rule that refused it.
 */
export interface Outcome<State, Event> {
  readonly decision: Decision<Event>;
  /** State before the command (the fold of the given events). */
  readonly before: State;
  then(...expected: Event[]): State;
  thenNothingHappens(): State;
  thenRefused(code: DomainErrorCode, detail?: string | RegExp): void;
  /** The accepted events, for assertions on a few fields only. */
  events(): Event[];
}

export interface Scenario<State, Command, Event> {
  when(command: Command): Outcome<State, Event>;
  /** The state the given events fold to. */
  state(): State;
}

export interface DeciderSpec<State, Command, Event> {
  given(...events: Event[]): Scenario<State, Command, Event>;
}

export function spec<State, Command, Event>(
  decider: Decider<State, Command, Event>,
): DeciderSpec<State, Command, Event> {
  return {
    given(...history: Event[]): Scenario<State, Command, Event> {
      const before = fold(decider, history);
      return {
        state: () => before,
        when(command: Command): Outcome<State, Event> {
          const decision = decider.decide(command, before);
          const accepted = (): Event[] => {
            if (!decision.ok)
              throw new Error(
                `expected the command to be accepted, but it was refused: ${decision.error.code}: ${decision.error.detail}`,
              );
            return decision.events;
          };
          return {
            decision,
            before,
            then(...expected: Event[]): State {
              const events = accepted();
              expect(events).toEqual(expected);
              return events.reduce(decider.evolve, before);
            },
            thenNothingHappens(): State {
              expect(accepted()).toEqual([]);
              return before;
            },
            thenRefused(code: DomainErrorCode, detail?: string | RegExp): void {
              if (decision.ok)
                throw new Error(
                  `expected a refusal (${code}), but the command was accepted with ${JSON.stringify(decision.events)}`,
                );
              expect(decision.error.code).toBe(code);
              if (typeof detail === 'string') expect(decision.error.detail).toContain(detail);
              else if (detail) expect(decision.error.detail).toMatch(detail);
            },
            events: accepted,
          };
        },
      };
    },
  };
}
