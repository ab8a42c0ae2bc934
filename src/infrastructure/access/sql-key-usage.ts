import { KeyRefusal, KeyUsage } from '../../application/ports/key-usage.port';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';
import { LastUseWriter } from './last-use-writer';

export const KEY_REFUSALS_SCHEMA: SchemaScript = {
  name: 'key-refusals',
  sql: `
CREATE TABLE IF NOT EXISTS key_refusals (
  key_id text NOT NULL,
  code text NOT NULL,
  refused_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS key_refusals_by_key ON key_refusals (key_id, refused_at);
`,
};

export class SqlKeyUsage implements KeyUsage {
  private readonly lastUses: LastUseWriter;

  constructor(private readonly db: SqlExecutor) {
    this.lastUses = new LastUseWriter(db, { table: 'api_key_last_use', id: 'key_id' });
  }

  recordUse(keyId: string, at: Date): void {
    this.lastUses.record(keyId, at);
  }

  async recordRefusal(refusal: KeyRefusal): Promise<void> {
    await this.db.query('INSERT INTO key_refusals (key_id, code, refused_at) VALUES ($1, $2, $3)', [
      refusal.keyId,
      refusal.code,
      refusal.at.toISOString(),
    ]);
  }

  async refusalsSince(keyIds: readonly string[], since: Date): Promise<Map<string, number>> {
    if (keyIds.length === 0) return new Map();
    const rows = await this.db.query<{ key_id: string; refusals: number }>(
      `SELECT key_id, count(*)::int AS refusals FROM key_refusals
        WHERE key_id = ANY($1::text[]) AND refused_at > $2 GROUP BY key_id`,
      [[...keyIds], since.toISOString()],
    );
    return new Map(rows.map((row) => [row.key_id, row.refusals]));
  }
}
