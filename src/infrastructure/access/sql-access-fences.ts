import { AccessFence, AccessFences } from '../../application/ports/access-fences.port';
import { PROJECTION_GROUPS } from '../projections/projection-groups';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';

const READ_MODELS_CHECKPOINT = PROJECTION_GROUPS.readModels;

export const ACCESS_FENCES_SCHEMA: SchemaScript = {
  name: 'access-fences',
  sql: `
CREATE TABLE IF NOT EXISTS access_fences (
  partner_id text NOT NULL,
  environment text NOT NULL,
  commit_position bigint NOT NULL,
  prepare_position bigint NOT NULL,
  raised_at timestamptz NOT NULL,
  PRIMARY KEY (partner_id, environment, commit_position, prepare_position)
);
`,
};

/** For a key row `k`: a fence of its partner and environment is still ahead of the read models (a missing checkpoint row counts as behind). */
export const ACCESS_CHANGE_PENDING_SQL = `EXISTS (
           SELECT 1 FROM access_fences f
            WHERE f.partner_id = k.partner_id AND f.environment = k.environment
              AND NOT EXISTS (
                SELECT 1 FROM projection_checkpoints c
                 WHERE c.name = '${READ_MODELS_CHECKPOINT}'
                   AND (c.commit_position, c.prepare_position) >= (f.commit_position, f.prepare_position)))`;

export class SqlAccessFences implements AccessFences {
  constructor(private readonly db: SqlExecutor) {}

  async raise(fence: AccessFence): Promise<void> {
    await this.db.query(
      `INSERT INTO access_fences (partner_id, environment, commit_position, prepare_position, raised_at)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [
        fence.partnerId,
        fence.environment,
        fence.position.commit.toString(),
        fence.position.prepare.toString(),
        fence.at.toISOString(),
      ],
    );
  }

  async dropPassed(limit: number): Promise<number> {
    const rows = await this.db.query<{ partner_id: string }>(
      `DELETE FROM access_fences
        WHERE ctid IN (
          SELECT f.ctid FROM access_fences f JOIN projection_checkpoints c ON c.name = '${READ_MODELS_CHECKPOINT}'
           WHERE (c.commit_position, c.prepare_position) >= (f.commit_position, f.prepare_position)
           LIMIT $1)
        RETURNING partner_id`,
      [limit],
    );
    return rows.length;
  }
}
