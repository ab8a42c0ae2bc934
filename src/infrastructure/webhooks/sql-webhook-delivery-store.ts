import {
  DeliveryState,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryStore,
} from '../../application/ports/webhook.port';
import { Environment } from '../../domain/shared/environment';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';
import { StatementBatcher } from '../sql/statement-batcher';
import { WEBHOOK_STATS_SHARDS } from './webhook-daily-stats.schema';

export const WEBHOOK_SCHEMA: SchemaScript = {
  name: 'webhooks',
  sql: `
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  delivery_id text PRIMARY KEY,
  partner_id text NOT NULL,
  environment text NOT NULL,
  event text NOT NULL,
  order_id text NOT NULL,
  url text NOT NULL,
  body text NOT NULL,
  state text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_by_partner ON webhook_deliveries (partner_id, environment, created_at DESC);
CREATE TABLE IF NOT EXISTS webhook_attempts (
  delivery_id text NOT NULL REFERENCES webhook_deliveries (delivery_id),
  attempt integer NOT NULL,
  attempted_at timestamptz NOT NULL,
  status_code integer,
  latency_ms integer NOT NULL,
  error text,
  PRIMARY KEY (delivery_id, attempt)
);
ALTER TABLE webhook_attempts ADD COLUMN IF NOT EXISTS url text;
`,
};

interface DeliveryRow {
  delivery_id: string;
  partner_id: string;
  environment: Environment;
  event: string;
  order_id: string;
  url: string;
  body: string;
  state: DeliveryState;
  created_at: Date | string;
  updated_at: Date | string;
}

interface AttemptRow {
  delivery_id: string;
  attempt: number;
  attempted_at: Date | string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  url: string | null;
}

const attemptResult = (state: DeliveryState): 'delivered' | 'retrying' | 'failed' =>
  state === 'SUCCEEDED' ? 'delivered' : state === 'FAILED' ? 'failed' : 'retrying';

export class SqlWebhookDeliveryStore implements WebhookDeliveryStore {
  private readonly lookups = new StatementBatcher<string, WebhookDelivery | null>((deliveryIds) =>
    this.readDeliveries(deliveryIds),
  );

  constructor(private readonly db: SqlExecutor) {}

  async open(delivery: Omit<WebhookDelivery, 'state' | 'attempts' | 'updatedAt'>): Promise<WebhookDelivery> {
    await this.db.query(
      `INSERT INTO webhook_deliveries (delivery_id, partner_id, environment, event, order_id, url, body, state, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'PENDING', $8, $8) ON CONFLICT (delivery_id) DO NOTHING`,
      [
        delivery.deliveryId,
        delivery.partnerId,
        delivery.environment,
        delivery.event,
        delivery.orderId,
        delivery.url,
        delivery.body,
        delivery.createdAt,
      ],
    );
    const stored = await this.get(delivery.deliveryId);
    if (!stored) throw new Error(`delivery ${delivery.deliveryId} vanished`);
    return stored;
  }

  /** One statement: the attempt (once per number), the delivery's state, and the day's counter by result. */
  async recordAttempt(deliveryId: string, attempt: WebhookAttempt, state: DeliveryState): Promise<boolean> {
    const rows = await this.db.query<{ recorded: number }>(
      `WITH attempt AS (
         INSERT INTO webhook_attempts (delivery_id, attempt, attempted_at, status_code, latency_ms, error, url)
         VALUES ($1, $2, $3::timestamptz, $4, $5, $6, $7)
         ON CONFLICT (delivery_id, attempt) DO NOTHING
         RETURNING delivery_id
       ), delivery AS (
         UPDATE webhook_deliveries SET state = $8, updated_at = $3::timestamptz
          WHERE delivery_id IN (SELECT delivery_id FROM attempt)
         RETURNING environment
       ), counted AS (
         INSERT INTO webhook_daily_stats AS s (day, environment, result, shard, attempts)
         SELECT ($3::timestamptz AT TIME ZONE 'UTC')::date, environment, $9, abs(hashtext($1)) % ${WEBHOOK_STATS_SHARDS}, 1
           FROM delivery
         ON CONFLICT (day, environment, result, shard) DO UPDATE SET attempts = s.attempts + 1
       )
       SELECT count(*)::int AS recorded FROM attempt`,
      [
        deliveryId,
        attempt.attempt,
        attempt.attemptedAt,
        attempt.statusCode,
        attempt.latencyMs,
        attempt.error,
        attempt.url,
        state,
        attemptResult(state),
      ],
    );
    return (rows[0]?.recorded ?? 0) > 0;
  }

  get(deliveryId: string): Promise<WebhookDelivery | null> {
    return this.lookups.submit(deliveryId);
  }

  private async readDeliveries(deliveryIds: readonly string[]): Promise<(WebhookDelivery | null)[]> {
    const rows = await this.db.query<DeliveryRow>(
      'SELECT * FROM webhook_deliveries WHERE delivery_id = ANY($1::text[])',
      [[...new Set(deliveryIds)]],
    );
    const found = new Map((await this.withAttempts(rows)).map((delivery) => [delivery.deliveryId, delivery]));
    return deliveryIds.map((deliveryId) => found.get(deliveryId) ?? null);
  }

  async list(filter: {
    partnerId?: string;
    environment?: Environment;
    state?: DeliveryState;
    limit: number;
  }): Promise<WebhookDelivery[]> {
    const params: unknown[] = [];
    const where: string[] = [];
    const add = (column: string, value: unknown) => {
      params.push(value);
      where.push(`${column} = $${params.length}`);
    };
    if (filter.partnerId) add('partner_id', filter.partnerId);
    if (filter.environment) add('environment', filter.environment);
    if (filter.state) add('state', filter.state);
    params.push(filter.limit);
    const rows = await this.db.query<DeliveryRow>(
      `SELECT * FROM webhook_deliveries ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, delivery_id LIMIT $${params.length}`,
      params,
    );
    return this.withAttempts(rows);
  }

  private async withAttempts(rows: DeliveryRow[]): Promise<WebhookDelivery[]> {
    if (rows.length === 0) return [];
    const attempts = await this.db.query<AttemptRow>(
      'SELECT * FROM webhook_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY attempt',
      [rows.map((row) => row.delivery_id)],
    );
    return rows.map((row) => ({
      deliveryId: row.delivery_id,
      partnerId: row.partner_id,
      environment: row.environment,
      event: row.event,
      orderId: row.order_id,
      url: row.url,
      body: row.body,
      state: row.state,
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
      attempts: attempts
        .filter((attempt) => attempt.delivery_id === row.delivery_id)
        .map((attempt) => ({
          attempt: attempt.attempt,
          attemptedAt: new Date(attempt.attempted_at).toISOString(),
          statusCode: attempt.status_code,
          latencyMs: attempt.latency_ms,
          error: attempt.error,
          url: attempt.url,
        })),
    }));
  }
}
