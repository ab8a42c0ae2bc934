import { WalletSnapshot, WalletSnapshots } from '../../application/ports/wallet-snapshots.port';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';

export const WALLET_SNAPSHOT_SEALS_SCHEMA: SchemaScript = {
  name: 'wallet-snapshot-seals',
  sql: `
ALTER TABLE wallet_snapshots ADD COLUMN IF NOT EXISTS seal text;
`,
};

export const WALLET_SNAPSHOTS_SCHEMA: SchemaScript = {
  name: 'wallet-snapshots',
  sql: `
CREATE TABLE IF NOT EXISTS wallet_snapshots (
  stream_id text PRIMARY KEY,
  revision bigint NOT NULL,
  event_id uuid NOT NULL,
  fold_version integer NOT NULL,
  state jsonb NOT NULL,
  taken_at timestamptz NOT NULL DEFAULT now()
);
`,
};

interface SnapshotRow {
  revision: string;
  event_id: string;
  fold_version: number;
  state: unknown;
  seal: string | null;
}

/** Wallet snapshots in PostgreSQL, one row per wallet stream; asynchronous commit suffices, as a lost snapshot is taken again. */
export class SqlWalletSnapshots implements WalletSnapshots {
  constructor(private readonly db: SqlExecutor) {}

  async latest(streamId: string): Promise<WalletSnapshot | null> {
    const [row] = await this.db.query<SnapshotRow>(
      `SELECT revision::text AS revision, event_id::text AS event_id, fold_version, state, seal
         FROM wallet_snapshots WHERE stream_id = $1`,
      [streamId],
    );
    if (!row) return null;
    return {
      revision: Number(row.revision),
      eventId: row.event_id,
      foldVersion: row.fold_version,
      state: row.state,
      seal: row.seal,
    };
  }

  async save(streamId: string, snapshot: WalletSnapshot): Promise<void> {
    await this.db.query(
      `INSERT INTO wallet_snapshots (stream_id, revision, event_id, fold_version, state, seal, taken_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (stream_id) DO UPDATE
         SET revision = EXCLUDED.revision, event_id = EXCLUDED.event_id, fold_version = EXCLUDED.fold_version,
             state = EXCLUDED.state, seal = EXCLUDED.seal, taken_at = EXCLUDED.taken_at
       WHERE wallet_snapshots.revision < EXCLUDED.revision`,
      [
        streamId,
        snapshot.revision,
        snapshot.eventId,
        snapshot.foldVersion,
        JSON.stringify(snapshot.state),
        snapshot.seal,
      ],
    );
  }

  async discard(streamId: string, snapshot: WalletSnapshot): Promise<void> {
    await this.db.query(
      `DELETE FROM wallet_snapshots
        WHERE stream_id = $1 AND revision = $2 AND event_id = $3 AND fold_version = $4`,
      [streamId, snapshot.revision, snapshot.eventId, snapshot.foldVersion],
    );
  }
}

/** Forgets every snapshot: they describe a log, and a database about to receive an imported one holds none of it. */
export async function forgetWalletSnapshots(db: SqlExecutor): Promise<void> {
  await db.query('DELETE FROM wallet_snapshots');
}
