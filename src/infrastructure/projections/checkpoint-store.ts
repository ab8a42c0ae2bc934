import { GlobalPosition } from '../../application/ports/event-store.port';
import { SchemaScript } from '../sql/migrations';
import { SQLSTATE, SqlDatabase, SqlExecutor, sqlStateOf } from '../sql/sql-database';
import { DeferredStatement } from './deferred-writes';

export const CHECKPOINT_SCHEMA: SchemaScript = {
  name: 'checkpoints',
  sql: `
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  name text PRIMARY KEY,
  commit_position bigint,
  prepare_position bigint,
  updated_at timestamptz NOT NULL DEFAULT now()
);
`,
};

const ADVANCE = `UPDATE projection_checkpoints SET commit_position = $4, prepare_position = $5, updated_at = now()
  WHERE name = $1 AND commit_position IS NOT DISTINCT FROM $2::bigint AND prepare_position IS NOT DISTINCT FROM $3::bigint
  RETURNING name`;

const DEADLOCK_ATTEMPTS = 3;

const advanceParams = (name: string, from: GlobalPosition | null, to: GlobalPosition): unknown[] => [
  name,
  from?.commit.toString() ?? null,
  from?.prepare.toString() ?? null,
  to.commit.toString(),
  to.prepare.toString(),
];

/** A statement's parameters `$1`, `$2`, … as `$(1 + offset)`, … (the projections' statements hold no `$` otherwise). */
const renumbered = (sql: string, offset: number): string =>
  sql.replace(/\$(\d+)/g, (_, index: string) => `$${Number(index) + offset}`);

/** The checkpoint's move, checked against `from`, then each write as a step of the same statement. */
function withCheckpointMove(
  name: string,
  from: GlobalPosition | null,
  to: GlobalPosition,
  writes: readonly DeferredStatement[],
): { sql: string; params: unknown[] } {
  const params: unknown[] = advanceParams(name, from, to);
  const steps = writes.map((write, index) => {
    const sql = renumbered(write.sql, params.length);
    params.push(...write.params);
    return `write_${index} AS (${sql})`;
  });
  return { sql: `WITH moved AS (${ADVANCE}), ${steps.join(',\n')}`, params };
}

/**
 * The statement locks its tables before the checkpoint's row, a read model's blue/green switch the other way round:
 * PostgreSQL ends the deadlock by failing one of them, and the batch's writes hold after the switch.
 */
async function retriedOnDeadlock(attempt: () => Promise<boolean>): Promise<boolean> {
  for (let attempts = 1; ; attempts++) {
    try {
      return await attempt();
    } catch (error) {
      if (sqlStateOf(error) !== SQLSTATE.deadlockDetected || attempts >= DEADLOCK_ATTEMPTS) throw error;
    }
  }
}

/** The batch's statement, failing whole (a division by zero) where the checkpoint had moved. */
async function movedOrFailed(db: SqlExecutor, sql: string, params: readonly unknown[]): Promise<boolean> {
  try {
    await db.query(
      `${sql}
       -- A division by zero here: another process moved the checkpoint first; nothing of this statement is kept.
       SELECT 1 / count(*) AS moved FROM moved`,
      params,
    );
    return true;
  } catch (error) {
    if (sqlStateOf(error) === SQLSTATE.divisionByZero) return false;
    throw error;
  }
}

/** The batch's statement counting the move, in a transaction rolled back where the checkpoint had moved. */
async function movedCounted(db: SqlDatabase, sql: string, params: readonly unknown[]): Promise<boolean> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.query<{ moved: number }>(
        `${sql}\n       SELECT count(*)::int AS moved FROM moved`,
        params,
      );
      if (row.moved === 0) throw new CheckpointMovedElsewhere();
      return true;
    });
  } catch (error) {
    if (error instanceof CheckpointMovedElsewhere) return false;
    throw error;
  }
}

/** Rolls back a batch whose checkpoint another process had moved. */
class CheckpointMovedElsewhere extends Error {}

interface CheckpointRow {
  commit_position: string | null;
  prepare_position: string | null;
}

export const checkpoints = {
  async ensure(db: SqlExecutor, name: string): Promise<void> {
    await db.query('INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING', [name]);
  },

  async read(db: SqlExecutor, name: string, forUpdate = false): Promise<GlobalPosition | null> {
    const rows = await db.query<CheckpointRow>(
      `SELECT commit_position::text AS commit_position, prepare_position::text AS prepare_position
         FROM projection_checkpoints WHERE name = $1${forUpdate ? ' FOR UPDATE' : ''}`,
      [name],
    );
    const row = rows[0];
    if (!row || row.commit_position === null || row.prepare_position === null) return null;
    return { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) };
  },

  async write(db: SqlExecutor, name: string, position: GlobalPosition): Promise<void> {
    await db.query(
      `UPDATE projection_checkpoints SET commit_position = $2, prepare_position = $3, updated_at = now() WHERE name = $1`,
      [name, position.commit.toString(), position.prepare.toString()],
    );
  },

  /** Moves the checkpoint from `from` to `to` if it is still at `from`; the row stays locked until the transaction ends. */
  async advance(db: SqlExecutor, name: string, from: GlobalPosition | null, to: GlobalPosition): Promise<boolean> {
    const rows = await db.query<{ name: string }>(ADVANCE, advanceParams(name, from, to));
    return rows.length > 0;
  },

  /**
   * Moves the checkpoint as `advance` does and makes the writes in the same statement, all or nothing: where the
   * checkpoint is no longer at `from`, the statement fails (a division by zero, the one error an aggregate can raise
   * at run time only) and nothing is written (decision 0159). `contended`: other processes are moving it too, so the
   * statement counts the move instead, in a transaction rolled back without it: two more round trips, and no error
   * for PostgreSQL to log at every lost race (decision 0179).
   */
  async advanceWith(
    db: SqlDatabase,
    name: string,
    from: GlobalPosition | null,
    to: GlobalPosition,
    writes: readonly DeferredStatement[],
    { contended }: { contended: boolean },
  ): Promise<boolean> {
    if (writes.length === 0) return this.advance(db, name, from, to);
    const { sql, params } = withCheckpointMove(name, from, to, writes);
    return retriedOnDeadlock(contended ? () => movedCounted(db, sql, params) : () => movedOrFailed(db, sql, params));
  },

  async reset(db: SqlExecutor, name: string): Promise<void> {
    await db.query(
      'UPDATE projection_checkpoints SET commit_position = NULL, prepare_position = NULL WHERE name = $1',
      [name],
    );
  },
};

export const samePosition = (a: GlobalPosition | null, b: GlobalPosition | null): boolean =>
  a === b || (a !== null && b !== null && a.commit === b.commit && a.prepare === b.prepare);
