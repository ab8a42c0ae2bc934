import { GlobalPosition } from '../../application/ports/event-store.port';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';

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
    const rows = await db.query<{ name: string }>(
      `UPDATE projection_checkpoints SET commit_position = $4, prepare_position = $5, updated_at = now()
        WHERE name = $1 AND commit_position IS NOT DISTINCT FROM $2::bigint AND prepare_position IS NOT DISTINCT FROM $3::bigint
        RETURNING name`,
      [
        name,
        from?.commit.toString() ?? null,
        from?.prepare.toString() ?? null,
        to.commit.toString(),
        to.prepare.toString(),
      ],
    );
    return rows.length > 0;
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
