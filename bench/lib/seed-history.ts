import { SqlDatabase } from '../../src/infrastructure/sql/sql-database';

export interface SeededHistory {
  events: number;
  fromRevision: number;
  toRevision: number;
  balanceAfter: string;
  ms: number;
}

const CHUNK = 25_000;

/**
 * Gives a wallet a long history fast: appends `count` WalletCredited events of 1.00
 * straight into es_events, in the shape the service writes (data, metadata, revision
 * chain, running balanceAfter), in one transaction: a concurrent append by the service at
 * the same revision waits on the primary key and then sees a new revision.
 * The service's projections pick the events up like any other append.
 */
export async function seedWalletHistory(
  db: SqlDatabase,
  partnerId: string,
  count: number,
  currency = 'INR',
): Promise<SeededHistory> {
  const started = Date.now();
  const streamId = `wallet-${partnerId}-sandbox`;
  const tag = Date.now().toString(36);
  const result = await db.transaction(async (tx) => {
    const streams = await tx.query<{ revision: string | null }>(
      'SELECT max(stream_revision)::text AS revision FROM es_events WHERE stream_id = $1',
      [streamId],
    );
    if (streams[0].revision === null)
      throw new Error(`wallet stream ${streamId} does not exist yet: fund the wallet first`);
    const revision = Number(streams[0].revision);
    const last = await tx.query<{ balance: string }>(
      `SELECT data->>'balanceAfter' AS balance FROM es_events WHERE stream_id = $1 AND stream_revision = $2`,
      [streamId, revision],
    );
    const [whole, fraction = ''] = last[0].balance.split('.');
    let balanceMinor = BigInt(whole) * 100n + BigInt((fraction + '00').slice(0, 2));
    const at = new Date().toISOString();
    for (let done = 0; done < count; done += CHUNK) {
      const size = Math.min(CHUNK, count - done);
      await tx.query(
        `INSERT INTO es_events (event_id, stream_id, stream_revision, event_type, schema_version, data, metadata)
         SELECT gen_random_uuid(), $1, $2::bigint + i, 'WalletCredited', 1,
           jsonb_build_object('creditId', 'crd_seed_' || $6 || '_' || ($2::bigint + i), 'amount', '1.00', 'currency', $3::text,
             'balanceAfter', (($4::bigint + i * 100) / 100)::text || '.' || lpad((($4::bigint + i * 100) % 100)::text, 2, '0'),
             'kind', 'funding', 'reference', 'bench history seed', 'creditedAt', $5::text),
           jsonb_build_object('partnerId', $7::text, 'environment', 'sandbox', 'correlationId', 'crd_seed_' || $6 || '_' || ($2::bigint + i),
             'causationId', NULL, 'actor', jsonb_build_object('type', 'operator', 'id', 'bench-seed'), 'occurredAt', $5::text)
         FROM generate_series(1, $8::int) AS i`,
        [streamId, revision + done, currency, balanceMinor.toString(), at, tag, partnerId, size],
      );
      balanceMinor += BigInt(size) * 100n;
    }
    const balanceAfter = `${balanceMinor / 100n}.${(balanceMinor % 100n).toString().padStart(2, '0')}`;
    return { fromRevision: revision + 1, toRevision: revision + count, balanceAfter };
  });
  return { events: count, ...result, ms: Date.now() - started };
}
