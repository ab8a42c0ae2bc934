import { SqlExecutor } from '../sql/sql-database';

/** A write a projection asked for, not yet sent. */
export interface DeferredStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * What a projection marked `deferrableWrites` is given instead of a transaction: its statements are kept, not sent,
 * and the projector sends them with the checkpoint's move as one statement (decision 0159). The batch's shares read
 * through `reads`, before that statement.
 */
export class DeferredWrites implements SqlExecutor {
  readonly statements: DeferredStatement[] = [];

  constructor(readonly reads: SqlExecutor) {}

  query<Row extends object>(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    this.statements.push({ sql: text, params });
    return Promise.resolve([]);
  }
}
