import { RecordedEvent } from '../../application/ports/event-store.port';
import { WalletEvent } from '../../domain/wallet/wallet.events';
import { parseWalletStreamId } from '../../domain/wallet/wallet.stream';
import { SqlProjection } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';

/** Wallet balances: the wallet's own balance after each event, kept with the revision it belongs to. */
export const balanceProjection: SqlProjection = {
  name: 'balances',
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
  handles: new Set(['WalletCredited', 'WalletDebited', 'WalletRefunded']),

  async apply(event: RecordedEvent, tx: SqlExecutor): Promise<void> {
    const wallet = parseWalletStreamId(event.streamId);
    if (!wallet) return;
    const data = event.data as WalletEvent['data'];
    await tx.query(
      `INSERT INTO rm_balances (partner_id, environment, currency, available, revision, updated_at)
       VALUES ($1, $2, $3, $4::numeric, $5, $6)
       ON CONFLICT (partner_id, environment) DO UPDATE
         SET available = EXCLUDED.available, revision = EXCLUDED.revision, updated_at = EXCLUDED.updated_at
         WHERE rm_balances.revision < EXCLUDED.revision`,
      [wallet.partnerId, wallet.environment, data.currency, data.balanceAfter, event.revision, event.metadata.occurredAt],
    );
  },
};
