import {
  ApiKeyAccess,
  ApiKeyView,
  BalanceView,
  MainKeyView,
  OrderListFilter,
  StoredOrderView,
  PartnerView,
  ReadModels,
  ScopedKeyView,
} from '../../application/ports/read-models.port';
import { Currency, isCurrency } from '../../domain/money/currency';
import { PartnerSettings, defaultSettings } from '../../domain/partner/partner-settings';
import { Environment } from '../../domain/shared/environment';
import { PublicStatus } from '../../domain/transaction/transaction.decider';
import { SqlExecutor } from '../sql/sql-database';
import { StatementBatcher } from '../sql/statement-batcher';
import {
  API_KEY_ACCESS_SELECT,
  ApiKeyAccessRow,
  KEY_RECORD_COLUMNS,
  KeyRecordRow,
  provenanceOf,
  restrictionOf,
  toApiKeyAccess,
} from './api-key-rows';
import { ORDER_COLUMNS, OrderViewRow, toOrderView } from './order-view-row';
import { PARTNER_COLUMNS, PartnerRow, toPartnerView } from './partner-view-row';
import { publicStatusClauses } from './public-status-clauses';
import { decimal, iso } from './read-model-values';

const PUBLIC_STATUS_CLAUSES: Readonly<Record<PublicStatus, string>> = publicStatusClauses();

export class SqlReadModels implements ReadModels {
  /** Every partner request starts here: concurrent lookups share one query. */
  private readonly keyAccess = new StatementBatcher<string, ApiKeyAccess | null>((hashes) =>
    this.readKeyAccess(hashes),
  );
  private readonly settingsLookups = new StatementBatcher<
    { partnerId: string; environment: Environment },
    PartnerSettings
  >((wanted) => this.readSettings(wanted));

  constructor(private readonly db: SqlExecutor) {}

  async balance(partnerId: string, environment: Environment): Promise<BalanceView | null> {
    const rows = await this.db.query<{ currency: Currency; available: string; updated_at: Date | string }>(
      'SELECT currency, available::text AS available, updated_at FROM rm_balances WHERE partner_id = $1 AND environment = $2',
      [partnerId, environment],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      partnerId,
      environment,
      currency: row.currency,
      available: decimal(row.available, row.currency),
      updatedAt: iso(row.updated_at),
    };
  }

  async allBalances(): Promise<BalanceView[]> {
    const rows = await this.db.query<{
      partner_id: string;
      environment: Environment;
      currency: Currency;
      available: string;
      updated_at: Date | string;
    }>(
      'SELECT partner_id, environment, currency, available::text AS available, updated_at FROM rm_balances ORDER BY partner_id, environment',
    );
    return rows.map((row) => ({
      partnerId: row.partner_id,
      environment: row.environment,
      currency: row.currency,
      available: decimal(row.available, row.currency),
      updatedAt: iso(row.updated_at),
    }));
  }

  async order(orderId: string): Promise<StoredOrderView | null> {
    const rows = await this.db.query<OrderViewRow>(`SELECT ${ORDER_COLUMNS} FROM rm_orders WHERE order_id = $1`, [
      orderId,
    ]);
    return rows[0] ? toOrderView(rows[0]) : null;
  }

  async orders(filter: OrderListFilter): Promise<StoredOrderView[]> {
    const params: unknown[] = [filter.partnerId, filter.environment];
    const where = ['partner_id = $1', 'environment = $2'];
    const add = (clause: (n: number) => string, value: unknown) => {
      params.push(value);
      where.push(clause(params.length));
    };
    if (filter.publicStatus) where.push(PUBLIC_STATUS_CLAUSES[filter.publicStatus]);
    if (filter.createdFrom) add((n) => `created_at >= $${n}::timestamptz`, filter.createdFrom);
    if (filter.createdTo) add((n) => `created_at < $${n}::timestamptz`, filter.createdTo);
    if (filter.reference !== undefined) add((n) => `reference = $${n}`, filter.reference);
    if (filter.after) {
      params.push(filter.after.createdAt, filter.after.orderId);
      where.push(`(created_at, order_id) < ($${params.length - 1}::timestamptz, $${params.length})`);
    }
    params.push(filter.limit);
    const rows = await this.db.query<OrderViewRow>(
      `SELECT ${ORDER_COLUMNS} FROM rm_orders WHERE ${where.join(' AND ')}
        ORDER BY created_at DESC, order_id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map(toOrderView);
  }

  async heldOrders(limit: number): Promise<StoredOrderView[]> {
    const rows = await this.db.query<OrderViewRow>(
      `SELECT ${ORDER_COLUMNS} FROM rm_orders WHERE held_at IS NOT NULL ORDER BY created_at, order_id LIMIT $1`,
      [limit],
    );
    return rows.map(toOrderView);
  }

  async ordersRoutedTo(provider: string, from: string, to: string): Promise<StoredOrderView[]> {
    const rows = await this.db.query<OrderViewRow>(
      `SELECT ${ORDER_COLUMNS} FROM rm_orders WHERE provider = $1 AND created_at >= $2::timestamptz AND created_at < $3::timestamptz ORDER BY created_at, order_id`,
      [provider, from, to],
    );
    return rows.map(toOrderView);
  }

  async daysWithOrdersInDoubt(provider: string, from: string, to: string): Promise<string[]> {
    const rows = await this.db.query<{ day: string }>(
      `SELECT DISTINCT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM rm_orders
        WHERE provider = $1 AND created_at >= $2::timestamptz AND created_at < $3::timestamptz
          AND status IN ('NONE', 'INITIATED', 'PENDING', 'DISPUTED')
        ORDER BY day`,
      [provider, from, to],
    );
    return rows.map((row) => row.day);
  }

  async partner(partnerId: string): Promise<PartnerView | null> {
    const rows = await this.db.query<PartnerRow>(`SELECT ${PARTNER_COLUMNS} FROM rm_partners WHERE partner_id = $1`, [
      partnerId,
    ]);
    return rows.length ? toPartnerView(rows[0]) : null;
  }

  /** Concurrent lookups (webhook deliveries running side by side) share one statement. */
  async environmentsWithWebhookSecrets(): Promise<{ partnerId: string; environment: Environment }[]> {
    const rows = await this.db.query<{ partner_id: string; environment: Environment }>(
      `SELECT partner_id, environment FROM rm_partner_settings
        WHERE coalesce(jsonb_array_length(settings -> 'webhookSecrets'), 0) > 0 ORDER BY partner_id, environment`,
    );
    return rows.map((row) => ({ partnerId: row.partner_id, environment: row.environment }));
  }

  partnerSettings(partnerId: string, environment: Environment): Promise<PartnerSettings> {
    return this.settingsLookups.submit({ partnerId, environment });
  }

  private async readSettings(
    wanted: readonly { partnerId: string; environment: Environment }[],
  ): Promise<PartnerSettings[]> {
    const rows = await this.db.query<{ partner_id: string; environment: Environment; settings: PartnerSettings }>(
      `SELECT s.partner_id, s.environment, s.settings FROM rm_partner_settings s
         JOIN unnest($1::text[], $2::text[]) AS v(partner_id, environment) ON s.partner_id = v.partner_id AND s.environment = v.environment`,
      [wanted.map((item) => item.partnerId), wanted.map((item) => item.environment)],
    );
    const found = new Map(rows.map((row) => [`${row.partner_id} ${row.environment}`, row.settings]));
    return wanted.map((item) => found.get(`${item.partnerId} ${item.environment}`) ?? defaultSettings());
  }

  apiKeyAccess(keyHash: string): Promise<ApiKeyAccess | null> {
    return this.keyAccess.submit(keyHash);
  }

  private async readKeyAccess(keyHashes: readonly string[]): Promise<(ApiKeyAccess | null)[]> {
    const rows = await this.db.query<ApiKeyAccessRow>(
      `${API_KEY_ACCESS_SELECT}
        WHERE k.key_hash = ANY($1::text[])`,
      [[...new Set(keyHashes)]],
    );
    const byHash = new Map(rows.map((row) => [row.key_hash, toApiKeyAccess(row)]));
    return keyHashes.map((hash) => byHash.get(hash) ?? null);
  }

  async apiKeyAccessByIds(keyIds: readonly string[]): Promise<Map<string, ApiKeyAccess>> {
    if (keyIds.length === 0) return new Map();
    const rows = await this.db.query<ApiKeyAccessRow>(
      `${API_KEY_ACCESS_SELECT}
        WHERE k.key_id = ANY($1::text[])`,
      [[...new Set(keyIds)]],
    );
    return new Map(rows.map((row) => [row.key_id, toApiKeyAccess(row)]));
  }

  async scopedKeys(partnerId: string, environment: Environment): Promise<ScopedKeyView[]> {
    const rows = await this.db.query<KeyRecordRow>(
      `SELECT ${KEY_RECORD_COLUMNS} FROM rm_api_keys k LEFT JOIN api_key_last_use u ON u.key_id = k.key_id
        WHERE k.partner_id = $1 AND k.environment = $2 AND k.kind = 'restricted'
        ORDER BY k.issued_at, k.key_id`,
      [partnerId, environment],
    );
    return rows.flatMap((row) => {
      const terms = restrictionOf(row);
      if (!terms.restriction || row.currency === null || !isCurrency(row.currency)) return [];
      return [
        {
          ...terms.restriction,
          ...provenanceOf(row),
          partnerId: row.partner_id,
          environment: row.environment,
          currency: row.currency,
          revokedAt: row.revoked_at === null ? null : iso(row.revoked_at),
          revokeReason: row.revoke_reason,
        },
      ];
    });
  }

  async mainKey(partnerId: string, environment: Environment): Promise<MainKeyView | null> {
    const rows = await this.db.query<KeyRecordRow>(
      `SELECT ${KEY_RECORD_COLUMNS} FROM rm_api_keys k LEFT JOIN api_key_last_use u ON u.key_id = k.key_id
        WHERE k.partner_id = $1 AND k.environment = $2 AND k.kind = 'main' AND k.active
        ORDER BY k.issued_at DESC, k.key_id LIMIT 1`,
      [partnerId, environment],
    );
    return rows[0] ? provenanceOf(rows[0]) : null;
  }

  async apiKeyByHash(keyHash: string): Promise<ApiKeyView | null> {
    const rows = await this.db.query<{ key_id: string; partner_id: string; environment: Environment; active: boolean }>(
      'SELECT key_id, partner_id, environment, active FROM rm_api_keys WHERE key_hash = $1',
      [keyHash],
    );
    const row = rows[0];
    return row
      ? { keyId: row.key_id, partnerId: row.partner_id, environment: row.environment, active: row.active }
      : null;
  }
}
