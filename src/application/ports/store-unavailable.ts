/**
 * The service's database cannot be reached (down, restarting, connection cut). Nothing the failed
 * call tried to write was committed; the request can be retried with the same Idempotency-Key.
 */
export class StoreUnavailableError extends Error {
  constructor(override readonly cause: unknown) {
    super(`the database is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'StoreUnavailableError';
  }
}
