import { PGlite } from '@electric-sql/pglite';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HistoricalEvent } from '../../application/ports/event-store.port';
import { EVENT_COLUMNS, EventRow, historicalOf } from '../event-store/sql-event-row';

/* The one use of @electric-sql/pglite left: reading an earlier release's DATA_DIR/pglite for `data import`. */

const isPgliteFolder = (path: string): boolean => existsSync(join(path, 'PG_VERSION'));

/** Reads a PGlite folder's events in global order, from a temporary copy (PGlite writes to what it opens). */
export class PgliteEventReader {
  private constructor(
    private readonly db: PGlite,
    private readonly copy: string,
  ) {}

  static async open(folder: string): Promise<PgliteEventReader> {
    if (!isPgliteFolder(folder)) throw new Error(`${folder} is not a PGlite data folder (it has no PG_VERSION)`);
    const copy = mkdtempSync(join(tmpdir(), 'pglite-import-'));
    try {
      cpSync(folder, copy, { recursive: true });
      const db = new PGlite({ dataDir: copy });
      await db.waitReady;
      const reader = new PgliteEventReader(db, copy);
      const tables = await db.query<{ found: boolean }>(`SELECT to_regclass('es_events') IS NOT NULL AS found`);
      if (!tables.rows[0]?.found) {
        await reader.close();
        throw new Error(`${folder} holds no event store (no es_events table)`);
      }
      return reader;
    } catch (error) {
      rmSync(copy, { recursive: true, force: true });
      throw error;
    }
  }

  async count(): Promise<number> {
    const result = await this.db.query<{ count: string }>('SELECT count(*)::text AS count FROM es_events');
    return Number(result.rows[0].count);
  }

  async *events(pageSize = 500): AsyncGenerator<HistoricalEvent> {
    let after: { transactionId: string; position: string } | null = null;
    for (;;) {
      const page: EventRow[] = (
        await this.db.query<EventRow>(
          `SELECT ${EVENT_COLUMNS}
             FROM es_events
            WHERE $1::text IS NULL OR (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
            ORDER BY transaction_id, global_position
            LIMIT $3`,
          [after?.transactionId ?? null, after?.position ?? null, pageSize],
        )
      ).rows;
      if (page.length === 0) return;
      for (const row of page) yield historicalOf(row);
      const last = page[page.length - 1];
      after = { transactionId: last.transaction_id, position: last.global_position };
    }
  }

  async close(): Promise<void> {
    try {
      if (!this.db.closed) await this.db.close();
    } finally {
      rmSync(this.copy, { recursive: true, force: true });
    }
  }
}
