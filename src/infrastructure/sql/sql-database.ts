/** The small SQL surface the adapters use. Parameters are $1, $2, ... */
export interface SqlExecutor {
  query<Row extends object>(text: string, params?: readonly unknown[]): Promise<Row[]>;
}

export interface SqlDatabase extends SqlExecutor {
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Runs several statements without parameters (schema migrations). */
  exec(script: string): Promise<void>;
  /** The same database with asynchronous commits, for rows a crash may lose (docs/architecture.md, "Durability of each write"). */
  withAsynchronousCommit(): SqlDatabase;
  close(): Promise<void>;
}

/** SQLSTATE codes the adapters react to. */
export const SQLSTATE = {
  uniqueViolation: '23505',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
  divisionByZero: '22012',
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

/** PostgreSQL's detail of an error (which key was duplicated, which row failed a check), if it gave one. */
export function detailOf(error: unknown): string | null {
  if (typeof error === 'object' && error !== null && 'detail' in error) {
    const detail = error.detail;
    return typeof detail === 'string' && detail !== '' ? detail : null;
  }
  return null;
}
