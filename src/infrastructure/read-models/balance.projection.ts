import { RecordedEvent } from '../../application/ports/event-store.port';
import { typesOf } from '../../domain/shared/event-types';
import { WALLET_EVENTS, WalletEvent } from '../../domain/wallet/wallet.events';
import { parseWalletStreamId } from '../../domain/wallet/wallet.stream';
import { SqlProjection } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';

export const balanceProjection: SqlProjection<WalletEvent> = {
  name: 'balances',
  schemaVersion: 1,
  schema: {
    name: 'balances',
    sql: `
CREATE TABLE IF NOT EXISTS rm_balances (
  partner_id text NOT NULL,
  environment text NOT NULL,
  currency text NOT NULL,
  available numeric(20, 4) NOT NULL,
  revision bigint NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (partner_id, environment)
);
`,
  },
  handles: typesOf(WALLET_EVENTS),
  deferrableWrites: true,

  async apply(event: RecordedEvent<WalletEvent>, tx: SqlExecutor): Promise<void> {
    const wallet = parseWalletStreamId(event.streamId);
    if (!wallet) return;
    const data = event.data;
    await tx.query(
      `INSERT INTO rm_balances (partner_id, environment, currency, available, revision, updated_at)
       VALUES ($1, $2, $3, $4::numeric, $5, $6)
       ON CONFLICT (partner_id, environment) DO UPDATE
         SET available = EXCLUDED.available, revision = EXCLUDED.revision, updated_at = EXCLUDED.updated_at
         WHERE rm_balances.revision < EXCLUDED.revision`,
      [
        wallet.partnerId,
        wallet.environment,
        data.currency,
        data.balanceAfter,
        event.revision,
        event.metadata.occurredAt,
      ],
    );
  },

  /** Only the latest event of each wallet in the batch decides its row: one upsert for all of them. */
  async applyBatch(events: readonly RecordedEvent<WalletEvent>[], tx: SqlExecutor): Promise<void> {
    const latest = new Map<string, RecordedEvent<WalletEvent>>();
    for (const event of events) {
      const seen = latest.get(event.streamId);
      if (!seen || seen.revision < event.revision) latest.set(event.streamId, event);
    }
    const columns: [string[], string[], string[], string[], number[], string[]] = [[], [], [], [], [], []];
    for (const event of latest.values()) {
      const wallet = parseWalletStreamId(event.streamId);
      if (!wallet) continue;
      const data = event.data;
      columns[0].push(wallet.partnerId);
      columns[1].push(wallet.environment);
      columns[2].push(data.currency);
      columns[3].push(data.balanceAfter);
      columns[4].push(event.revision);
      columns[5].push(event.metadata.occurredAt);
    }
    if (columns[0].length === 0) return;
    await tx.query(
      `INSERT INTO rm_balances (partner_id, environment, currency, available, revision, updated_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::numeric[], $5::bigint[], $6::timestamptz[])
       ON CONFLICT (partner_id, environment) DO UPDATE
         SET available = EXCLUDED.available, revision = EXCLUDED.revision, updated_at = EXCLUDED.updated_at
         WHERE rm_balances.revision < EXCLUDED.revision`,
      columns,
    );
  },
};
