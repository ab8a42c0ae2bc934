import { GlobalPosition } from './event-store.port';

/**
 * How far the log goes and how much of it lies between two places: what lag figures, progress totals, the health
 * check and the checks of an import are made of. Bound to the same adapter as the EventStore. None of it is read on
 * the path of an order.
 */
export interface EventLogDiagnostics {
  /** Position of the newest readable event (null: none). */
  headPosition(): Promise<GlobalPosition | null>;
  /**
   * Position of the newest committed event, readable or not yet (null: none): what a reader that must
   * miss nothing committed so far (an audit) reads up to. Equal to headPosition where every committed
   * event is readable at once (EventStoreDB).
   */
  committedHeadPosition(): Promise<GlobalPosition | null>;
  /**
   * How many readable events lie strictly after `after` (null: from the start) and, when `upTo`
   * is given, at or before it: a projection's lag, or the work left for a rebuild.
   */
  countEvents(after: GlobalPosition | null, upTo?: GlobalPosition | null): Promise<number>;
  /**
   * Committed events a reader cannot see yet because an older transaction is still open
   * (SQL stores); 0 when every committed event is readable.
   */
  countCommittedNotYetReadable(): Promise<number>;
}

export const EVENT_LOG_DIAGNOSTICS = Symbol('EventLogDiagnostics');
