import { Client } from 'pg';
import { cpuMsBetween, cpuSnapshot, waitForProcessIdle } from './cpu-usage';
import { LoadResult } from './load';
import { round, sleep } from './util';

/** Rows one table had written, per topup. */
export interface TableWrites {
  inserted: number;
  updated: number;
  /** Updates rewritten in place (HOT): no new index entries. */
  hot_updated: number;
  deleted: number;
  index_entries: number;
}

/**
 * What one topup cost, end to end: from the first request of a window until its orders were
 * settled and the server process idle, divided by the topups answered 200 in the window.
 */
export interface TopupCost {
  topups: number;
  /** CPU of the server process (the service or the peer), µs per topup. */
  server_cpu_us: number | null;
  /** CPU of every PostgreSQL process (backends, and the postmaster's count for those that exited), µs per topup. */
  postgres_cpu_us: number;
  /** SQL statements the server sent (its own count; BEGIN and COMMIT included). */
  statements: number | null;
  /** Waits for an answer from PostgreSQL (one per driver call). */
  round_trips: number | null;
  /** Commits in the bench database (pg_stat_database.xact_commit). */
  transactions: number;
  rows_inserted: number;
  rows_updated: number;
  rows_hot_updated: number;
  rows_deleted: number;
  /** inserted + updated + deleted. */
  rows_written: number;
  /**
   * Each row inserted and each update not HOT adds one entry to every full B-tree index of its table; a partial
   * index counts the rows it holds more at the end than at the start (what inserts added to it; an update moving a
   * row in or out of it is not seen); a BRIN index adds none (it summarizes a range of pages once, not each row).
   */
  index_entries: number;
  /** WAL written by the whole server (pg_current_wal_lsn), bytes per topup... */
  wal_bytes: number;
  /** ...in so many records (pg_stat_wal, the whole server)... */
  wal_records: number;
  /** ...of which full-page images: the first change to a page after a checkpoint (each cost window starts with one). */
  wal_full_page_images: number;
  /** From the end of the load until the side's orders were settled and its process idle. */
  settle_ms: number;
  /** How long the bench waited for PostgreSQL's backends to report their row counts. */
  stats_wait_s: number;
  by_table: Record<string, TableWrites>;
}

interface TableCounts {
  inserted: number;
  updated: number;
  hot: number;
  deleted: number;
  /** Full B-tree (and other non-BRIN) indexes. */
  indexes: number;
  /** Rows held by the table's partial indexes, summed. */
  partialRows: number;
}

interface Snapshot {
  tables: Map<string, TableCounts>;
  wal: bigint;
  walRecords: number;
  walFullPages: number;
  commits: number;
}

/** The counters one side of a comparison exposes. */
export interface CostSide {
  pid: number;
  /** Whose tables: the peer's crud_ ones, or the service's. */
  ownsTable: (table: string) => boolean;
  statements: () => Promise<{ statements: number; round_trips: number } | null>;
  /** Settlement work due and not done. */
  pendingSettlement: () => Promise<number>;
}

const lsnBytes = (lsn: string): bigint => {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
};

/** Reads the bench database's row counters, commits and the server's WAL position. */
export class CostMeter {
  private constructor(private readonly client: Client) {}

  static async open(databaseUrl: string): Promise<CostMeter> {
    const client = new Client({ connectionString: databaseUrl, application_name: 'bench-cost' });
    await client.connect();
    return new CostMeter(client);
  }

  async snapshot(): Promise<Snapshot> {
    const tables = await this.client.query<{
      relname: string;
      ins: string;
      upd: string;
      hot: string;
      del: string;
      indexes: number;
    }>(
      `SELECT t.relname, t.n_tup_ins::text AS ins, t.n_tup_upd::text AS upd, t.n_tup_hot_upd::text AS hot,
              t.n_tup_del::text AS del,
              (SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
                WHERE i.indrelid = t.relid AND am.amname <> 'brin' AND i.indpred IS NULL)::int AS indexes
         FROM pg_stat_user_tables t`,
    );
    const partialRows = await this.partialIndexRows();
    const position = await this.client.query<{ lsn: string; commits: string; records: string; fpi: string }>(
      `SELECT pg_current_wal_lsn()::text AS lsn,
              (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database())::text AS commits,
              w.wal_records::text AS records, w.wal_fpi::text AS fpi
         FROM pg_stat_wal w`,
    );
    return {
      tables: new Map(
        tables.rows.map((row) => [
          row.relname,
          {
            inserted: Number(row.ins),
            updated: Number(row.upd),
            hot: Number(row.hot),
            deleted: Number(row.del),
            indexes: row.indexes,
            partialRows: partialRows.get(row.relname) ?? 0,
          },
        ]),
      ),
      wal: lsnBytes(position.rows[0].lsn),
      walRecords: Number(position.rows[0].records),
      walFullPages: Number(position.rows[0].fpi),
      commits: Number(position.rows[0].commits),
    };
  }

  /** The rows each table's partial indexes hold, counted through their own predicates (outside the measured window). */
  private async partialIndexRows(): Promise<Map<string, number>> {
    const partial = await this.client.query<{ table_name: string; predicate: string }>(
      `SELECT t.relname AS table_name, pg_get_expr(i.indpred, i.indrelid) AS predicate
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
         JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE i.indpred IS NOT NULL AND am.amname <> 'brin' AND n.nspname = current_schema()`,
    );
    const rows = new Map<string, number>();
    for (const index of partial.rows) {
      const counted = await this.client.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM ${quoteIdentifier(index.table_name)} WHERE ${index.predicate}`,
      );
      rows.set(index.table_name, (rows.get(index.table_name) ?? 0) + Number(counted.rows[0].n));
    }
    return rows;
  }

  /** A checkpoint, so that each measured side starts with the same clean buffers (and the same full-page writes). */
  async checkpoint(): Promise<void> {
    await this.client.query('CHECKPOINT').catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}

/** Waits until the side has no settlement due and its process is idle; the ms it took. */
export async function settled(side: Pick<CostSide, 'pid' | 'pendingSettlement'>, maxMs = 15 * 60_000): Promise<number> {
  const started = Date.now();
  while ((await side.pendingSettlement()) > 0 && Date.now() - started < maxMs) await sleep(200);
  await waitForProcessIdle(side.pid);
  return Date.now() - started;
}

/**
 * Runs `load` and measures its cost per topup, end to end: CPU and statements from the first
 * request until the side's orders are settled, rows and index entries from PostgreSQL's table
 * statistics once its backends have reported them (`statsWaitSeconds`: a backend that goes idle
 * reports its last second's counts after up to 10 s), WAL from the server's write position. The
 * caller starts it with both sides settled and the statistics of earlier work reported.
 */
export async function measureTopupCost<T extends LoadResult>(
  meter: CostMeter,
  side: CostSide,
  statsWaitSeconds: number,
  load: () => Promise<T>,
): Promise<{ result: T; cost: TopupCost }> {
  const before = await meter.snapshot();
  const cpuBefore = cpuSnapshot(side.pid);
  const statementsBefore = await side.statements();
  const result = await load();
  const loadEnded = Date.now();
  await settled(side);
  const settleMs = Date.now() - loadEnded;
  const cpu = cpuMsBetween(cpuBefore, cpuSnapshot(side.pid));
  const statementsAfter = await side.statements();
  const walAfter = (await meter.snapshot()).wal;
  await sleep(statsWaitSeconds * 1000);
  const after = await meter.snapshot();

  const topups = Math.max(result.ok, 1);
  const per = (value: number, digits = 2): number => round(value / topups, digits);
  const byTable: Record<string, TableWrites> = {};
  const sum = { inserted: 0, updated: 0, hot: 0, deleted: 0, entries: 0 };
  for (const [table, now] of after.tables) {
    if (!side.ownsTable(table)) continue;
    const then = before.tables.get(table) ?? {
      inserted: 0,
      updated: 0,
      hot: 0,
      deleted: 0,
      indexes: now.indexes,
      partialRows: 0,
    };
    const inserted = now.inserted - then.inserted;
    const updated = now.updated - then.updated;
    const hot = now.hot - then.hot;
    const deleted = now.deleted - then.deleted;
    if (inserted + updated + deleted === 0) continue;
    const entries = (inserted + updated - hot) * now.indexes + Math.max(0, now.partialRows - then.partialRows);
    sum.inserted += inserted;
    sum.updated += updated;
    sum.hot += hot;
    sum.deleted += deleted;
    sum.entries += entries;
    byTable[table] = {
      inserted: per(inserted, 3),
      updated: per(updated, 3),
      hot_updated: per(hot, 3),
      deleted: per(deleted, 3),
      index_entries: per(entries, 3),
    };
  }
  const statements =
    statementsBefore && statementsAfter ? statementsAfter.statements - statementsBefore.statements : null;
  const roundTrips =
    statementsBefore && statementsAfter ? statementsAfter.round_trips - statementsBefore.round_trips : null;
  const cost: TopupCost = {
    topups: result.ok,
    server_cpu_us: cpu.server === null ? null : per(cpu.server * 1000, 0),
    postgres_cpu_us: per(cpu.postgres * 1000, 0),
    statements: statements === null ? null : per(statements),
    round_trips: roundTrips === null ? null : per(roundTrips),
    transactions: per(after.commits - before.commits),
    rows_inserted: per(sum.inserted),
    rows_updated: per(sum.updated),
    rows_hot_updated: per(sum.hot),
    rows_deleted: per(sum.deleted),
    rows_written: per(sum.inserted + sum.updated + sum.deleted),
    index_entries: per(sum.entries),
    wal_bytes: per(Number(walAfter - before.wal), 0),
    wal_records: per(after.walRecords - before.walRecords),
    wal_full_page_images: per(after.walFullPages - before.walFullPages, 3),
    settle_ms: settleMs,
    stats_wait_s: statsWaitSeconds,
    by_table: byTable,
  };
  return { result, cost };
}

const quoteIdentifier = (name: string): string => `"${name.replace(/"/g, '""')}"`;
