import { Logger } from '@nestjs/common';
import { KeyRefusal, KeyUsage } from '../../application/ports/key-usage.port';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';
import { StatementBatcher } from '../sql/statement-batcher';

/** A key's last use is written at most this often per process: the lists show it to within a few seconds. */
export const LAST_USE_RESOLUTION_MS = 5_000;

interface Use {
  keyId: string;
  at: number;
}

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
  private readonly logger = new Logger('KeyUsage');
  /** The last use this process wrote of each key (ms). */
  private readonly written = new Map<string, number>();
  private readonly uses = new StatementBatcher<Use, undefined>((uses) => this.writeUses(uses), {
    concurrency: 1,
    maxBatch: 500,
  });

  constructor(private readonly db: SqlExecutor) {}

  recordUse(keyId: string, at: Date): void {
    const time = at.getTime();
    const last = this.written.get(keyId);
    if (last !== undefined && time >= last && time - last < LAST_USE_RESOLUTION_MS) return;
    this.written.set(keyId, time);
    this.uses.submit({ keyId, at: time }).catch((error: unknown) => {
      this.written.delete(keyId);
      this.logger.warn(
        `last use of key ${keyId} not recorded: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }

  /** One row per key, the latest use; a later one already stored is kept. */
  private async writeUses(uses: readonly Use[]): Promise<undefined[]> {
    const latest = new Map<string, number>();
    for (const use of uses) latest.set(use.keyId, Math.max(latest.get(use.keyId) ?? use.at, use.at));
    const rows = [...latest.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    await this.db.query(
      `INSERT INTO api_key_last_use (key_id, last_used_at)
       SELECT * FROM unnest($1::text[], $2::timestamptz[])
       ON CONFLICT (key_id) DO UPDATE SET last_used_at = GREATEST(api_key_last_use.last_used_at, EXCLUDED.last_used_at)`,
      [rows.map(([keyId]) => keyId), rows.map(([, at]) => new Date(at).toISOString())],
    );
    return uses.map(() => undefined);
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
