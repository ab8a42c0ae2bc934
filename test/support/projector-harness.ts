import { GlobalPosition, RecordedEvent, comparePositions } from '../../src/application/ports/event-store.port';
import { LogReader } from '../../src/infrastructure/projections/shared-log-reads';
import { SqlDatabase, SqlExecutor, sqlStateOf } from '../../src/infrastructure/sql/sql-database';

/** The log as a projector reads it: the test appends to `events`. */
export class TestLog implements LogReader {
  readonly events: RecordedEvent[] = [];

  readAll(after: GlobalPosition | null, options: { maxCount: number }): Promise<RecordedEvent[]> {
    const newer = this.events.filter((event) => !after || comparePositions(event.position, after) > 0);
    return Promise.resolve(newer.slice(0, options.maxCount));
  }
}

/**
 * The database, with the first three words of every statement sent through it (BEGIN and COMMIT as such) and the
 * SQLSTATE of every statement PostgreSQL refused (each one an error in the server's log); `before` runs ahead of each
 * statement, for a test to act as another process at that moment.
 */
export function recordedStatements(
  db: SqlDatabase,
  options: { before?: (statement: string) => Promise<void> } = {},
): { db: SqlDatabase; statements: string[]; failures: string[] } {
  const statements: string[] = [];
  const failures: string[] = [];
  const through = (executor: SqlExecutor): SqlExecutor => ({
    query: async (text, params) => {
      statements.push(text.trim().split(/\s+/).slice(0, 3).join(' '));
      await options.before?.(text);
      try {
        return await executor.query(text, params);
      } catch (error) {
        failures.push(sqlStateOf(error) ?? String(error));
        throw error;
      }
    },
  });
  const view: SqlDatabase = {
    ...through(db),
    transaction: (work) => {
      statements.push('BEGIN');
      return db.transaction((tx) => work(through(tx))).finally(() => statements.push('COMMIT'));
    },
    exec: (script) => db.exec(script),
    withAsynchronousCommit: () => view,
    close: () => db.close(),
  };
  return { db: view, statements, failures };
}
