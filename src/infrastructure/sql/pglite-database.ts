import { PGlite, Transaction } from '@electric-sql/pglite';
import { SqlDatabase, SqlExecutor } from './sql-database';

/**
 * Embedded PostgreSQL (PGlite) in a data folder, or in memory when no folder is given.
 * PGlite has a single connection: it runs one transaction at a time, so work inside
 * `transaction` must use the executor it is given, never this object.
 */
export class PgliteDatabase implements SqlDatabase {
  readonly dialect = 'pglite' as const;

  private constructor(private readonly db: PGlite) {}

  /** `template`: a dump from `dump()` to start from instead of an empty cluster (much faster than initdb). */
  static async open(dataDir?: string, template?: Blob): Promise<PgliteDatabase> {
    const db = new PGlite({ dataDir, loadDataDir: template });
    await db.waitReady;
    return new PgliteDatabase(db);
  }

  async query<Row extends object>(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    const result = await this.db.query<Row>(text, params as unknown[]);
    return result.rows;
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(transactionExecutor(tx)));
  }

  async exec(script: string): Promise<void> {
    await this.db.exec(script);
  }

  /** One connection, one commit behaviour: PGlite is its own process's storage, so there is nothing to relax. */
  withAsynchronousCommit(): SqlDatabase {
    return this;
  }

  /** The whole database as an archive, to open copies from. */
  async dump(): Promise<Blob> {
    const archive = await this.db.dumpDataDir('none');
    return archive;
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close();
  }
}

const transactionExecutor = (tx: Transaction): SqlExecutor => ({
  async query<Row extends object>(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    const result = await tx.query<Row>(text, params as unknown[]);
    return result.rows;
  },
});
