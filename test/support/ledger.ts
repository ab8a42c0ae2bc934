import { randomUUID } from 'node:crypto';
import { Money } from '../../src/domain/money/money';
import { Currency } from '../../src/domain/money/currency';
import { walletStreamId } from '../../src/domain/wallet/wallet.stream';
import { SqlDatabase } from '../../src/infrastructure/sql/sql-database';
import { SQL_DATABASE } from '../../src/composition/tokens';
import { TestService } from './test-service';

/**
 * Direct reads of (and, for tamper tests, writes to) the event log of a test service,
 * so tests can count what really happened to the money rather than trust the API.
 */
export const sqlOf = (service: TestService): SqlDatabase => service.app.get<SqlDatabase>(SQL_DATABASE);

export const sandboxWallet = (partnerId: string): string => walletStreamId(partnerId, 'sandbox');

/** Debits recorded for one Idempotency-Key of one partner's sandbox wallet. */
export async function debitsForKey(service: TestService, partnerId: string, idempotencyKey: string): Promise<number> {
  const rows = await sqlOf(service).query<{ n: number }>(
    `SELECT count(*)::int AS n FROM es_events WHERE stream_id = $1 AND event_type = 'WalletDebited' AND data->>'idempotencyKey' = $2`,
    [sandboxWallet(partnerId), idempotencyKey],
  );
  return rows[0].n;
}

/** Every debit of a partner's sandbox wallet. */
export async function debitCount(service: TestService, partnerId: string): Promise<number> {
  const rows = await sqlOf(service).query<{ n: number }>(
    `SELECT count(*)::int AS n FROM es_events WHERE stream_id = $1 AND event_type = 'WalletDebited'`,
    [sandboxWallet(partnerId)],
  );
  return rows[0].n;
}

/** Events of one type that concern one order, wherever they are stored (order stream or wallet stream). */
export async function orderEvents(
  service: TestService,
  orderId: string,
  type: string,
): Promise<{ data: Record<string, unknown>; metadata: Record<string, unknown> }[]> {
  return sqlOf(service).query<{ data: Record<string, unknown>; metadata: Record<string, unknown> }>(
    `SELECT data, metadata FROM es_events
      WHERE event_type = $2 AND (data->>'orderId' = $1 OR metadata->>'correlationId' = $1)
      ORDER BY global_position`,
    [orderId, type],
  );
}

/**
 * Appends an event to a stream behind the service's back, the way a faulty writer or a
 * manual database edit would: a fresh UUID at the stream's next revision.
 */
export async function forgeEvent(
  service: TestService,
  streamId: string,
  type: string,
  data: Record<string, unknown>,
  metadata: Record<string, unknown>,
): Promise<string> {
  const eventId = randomUUID();
  await sqlOf(service).transaction(async (tx) => {
    const rows = await tx.query<{ revision: string | null }>(
      'SELECT max(stream_revision)::text AS revision FROM es_events WHERE stream_id = $1',
      [streamId],
    );
    if (rows[0].revision === null) throw new Error(`no stream ${streamId}`);
    const next = Number(rows[0].revision) + 1;
    await tx.query(
      `INSERT INTO es_events (event_id, stream_id, stream_revision, event_type, schema_version, data, metadata)
       VALUES ($1::uuid, $2, $3, $4, 1, $5::jsonb, $6::jsonb)`,
      [eventId, streamId, next, type, JSON.stringify(data), JSON.stringify(metadata)],
    );
  });
  return eventId;
}

/** The balance a wallet stream's last event recorded. */
export async function lastRecordedBalance(service: TestService, streamId: string, currency: Currency): Promise<Money> {
  const rows = await sqlOf(service).query<{ balance: string }>(
    `SELECT data->>'balanceAfter' AS balance FROM es_events WHERE stream_id = $1 ORDER BY stream_revision DESC LIMIT 1`,
    [streamId],
  );
  const balance = rows[0] ? Money.parse(rows[0].balance, currency) : null;
  if (!balance) throw new Error(`stream ${streamId} has no readable balance`);
  return balance;
}
