/**
 * Work the service schedules for itself when its background work starts. Every process does it at its
 * start, so it must be idempotent: a durable job under an id of its own, which the queue keeps once.
 */
export interface RecurringWork {
  /** Schedules the next occurrence, unless it is scheduled already. */
  arm(): Promise<void>;
}
