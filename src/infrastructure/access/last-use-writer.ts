import { Logger } from '@nestjs/common';
import { SqlExecutor } from '../sql/sql-database';
import { StatementBatcher } from '../sql/statement-batcher';

/** A credential's last use is written at most this often per process: the lists show it to within a few seconds. */
const LAST_USE_RESOLUTION_MS = 5_000;

type LastUseTable = { table: 'api_key_last_use'; id: 'key_id' } | { table: 'operator_last_use'; id: 'operator_id' };

interface Use {
  id: string;
  at: number;
}

/** Credentials' last use, written off the request path: batched, at most once per credential every few seconds per process. */
export class LastUseWriter {
  private readonly logger = new Logger('LastUse');
  private readonly written = new Map<string, number>();
  private readonly uses = new StatementBatcher<Use, undefined>((uses) => this.write(uses), {
    concurrency: 1,
    maxBatch: 500,
  });

  constructor(
    private readonly db: SqlExecutor,
    private readonly into: LastUseTable,
  ) {}

  record(id: string, at: Date): void {
    const time = at.getTime();
    const last = this.written.get(id);
    if (last !== undefined && time >= last && time - last < LAST_USE_RESOLUTION_MS) return;
    this.written.set(id, time);
    this.uses.submit({ id, at: time }).catch((error: unknown) => {
      this.written.delete(id);
      this.logger.warn(`last use of ${id} not recorded: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  async read(ids: readonly string[]): Promise<Map<string, Date>> {
    if (ids.length === 0) return new Map();
    const { table, id } = this.into;
    const rows = await this.db.query<{ id: string; last_used_at: Date }>(
      `SELECT ${id} AS id, last_used_at FROM ${table} WHERE ${id} = ANY($1::text[])`,
      [[...ids]],
    );
    return new Map(rows.map((row) => [row.id, new Date(row.last_used_at)]));
  }

  private async write(uses: readonly Use[]): Promise<undefined[]> {
    const latest = new Map<string, number>();
    for (const use of uses) latest.set(use.id, Math.max(latest.get(use.id) ?? use.at, use.at));
    const rows = [...latest.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const { table, id } = this.into;
    await this.db.query(
      `INSERT INTO ${table} (${id}, last_used_at)
       SELECT * FROM unnest($1::text[], $2::timestamptz[])
       ON CONFLICT (${id}) DO UPDATE SET last_used_at = GREATEST(${table}.last_used_at, EXCLUDED.last_used_at)`,
      [rows.map(([one]) => one), rows.map(([, at]) => new Date(at).toISOString())],
    );
    return uses.map(() => undefined);
  }
}
