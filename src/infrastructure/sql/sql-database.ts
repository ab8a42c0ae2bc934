export interface QueryOptions {
  /**
   * Plan the statement afresh at each call, with the values given, instead of reusing the plan
   * the connection cached for its text. For statements that join a batch to a table that grows
   * (`UPDATE … FROM unnest(…)`): a plan cached while the table was small scans it whole, and keeps
   * doing so once it is large unless statistics are refreshed (autovacuum may be off).
   */
  planPerCall?: boolean;
}

/** The small SQL surface the adapters use. Parameters are $1, $2, ... */
export interface SqlExecutor {
  query<Row extends object>(text: string, params?: readonly unknown[], options?: QueryOptions): Promise<Row[]>;
}

export interface SqlDatabase extends SqlExecutor {
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Runs several statements without parameters (schema migrations). */
  exec(script: string): Promise<void>;
  /**
   * The same database, with commits that return before their write-ahead log is flushed to
   * disk. Only for rows that a crash may lose without harm: rows rebuilt from the event log
   * (read models, checkpoints), counters (rate limits), and rows that a later synchronous
   * commit makes durable anyway, because PostgreSQL flushes its log in order (see
   * docs/architecture.md, "Durability of each write"). Closing the parent closes it.
   */
  withAsynchronousCommit(): SqlDatabase;
  close(): Promise<void>;
}

/** SQLSTATE codes the adapters react to. */
export const SQLSTATE = {
  uniqueViolation: '23505',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
} as const;

export function sqlStateOf(error: unknown): string | null {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = error.code;
    return typeof code === 'string' ? code : null;
  }
  return null;
}

export function constraintOf(error: unknown): string | null {
  if (typeof error === 'object' && error !== null && 'constraint' in error) {
    const constraint = error.constraint;
    return typeof constraint === 'string' ? constraint : null;
  }
  return null;
}
