import { ACCESS_CHANGE_PENDING_SQL } from '../access/sql-access-fences';
import {
  ApiKeyAccess,
  BalanceView,
  OrderListFilter,
  OrderView,
  PartnerView,
  ApiKeyView,
  ReadModels,
  ScopedKeyView,
} from '../../application/ports/read-models.port';
import { KeyScope } from '../../domain/partner/scoped-key';
import { ProviderAnsweredAfterHold, ProviderAnsweredAfterOutcome } from '../../domain/transaction/transaction.events';
import { Corridor } from '../../domain/corridor/corridor';
import { Currency } from '../../domain/money/currency';
import { Money } from '../../domain/money/money';
import { KycStatus } from '../../domain/partner/partner.events';
import { Environment } from '../../domain/shared/environment';
import { PublicStatus, TransactionStatus } from '../../domain/transaction/transaction.decider';
import { OrderProduct } from '../../domain/wallet/order-product';
import { SqlExecutor } from '../sql/sql-database';
import { StatementBatcher } from '../sql/statement-batcher';
import { PartnerSettings, defaultSettings } from '../../domain/partner/partner-settings';

export interface OrderRow {
  order_id: string;
  partner_id: string;
  environment: Environment;
  status: TransactionStatus;
  amount: string;
  currency: Currency;
  product: OrderProduct;
  reference: string | null;
  balance_after: string;
  operator_ref: string | null;
  settled_at: Date | string | null;
  refunded_at: Date | string | null;
  failure_reason: string | null;
  late_answer: ProviderAnsweredAfterHold['data'] | null;
  answer_after_outcome: ProviderAnsweredAfterOutcome['data'] | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export const ORDER_COLUMNS = `order_id, partner_id, environment, status, amount::text AS amount, currency, product, reference,
  balance_after::text AS balance_after, operator_ref, settled_at, refunded_at, failure_reason, late_answer, answer_after_outcome, created_at, updated_at`;

/** publicStatusOf in SQL: FAILED only once refunded. */
const PUBLIC_STATUS_CLAUSES: Record<PublicStatus, string> = {
  PENDING: `(status IN ('INITIATED', 'PENDING', 'DISPUTED') OR (status = 'FAILED' AND refunded_at IS NULL))`,
  SUCCESS: `status = 'SUCCESS'`,
  FAILED: `(status = 'FAILED' AND refunded_at IS NOT NULL)`,
};

/** Queries over the projected tables. */
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

  async order(orderId: string): Promise<OrderView | null> {
    const rows = await this.db.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM rm_orders WHERE order_id = $1`, [orderId]);
    return rows[0] ? toOrderView(rows[0]) : null;
  }

  async orders(filter: OrderListFilter): Promise<OrderView[]> {
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
    const rows = await this.db.query<OrderRow>(
      `SELECT ${ORDER_COLUMNS} FROM rm_orders WHERE ${where.join(' AND ')}
        ORDER BY created_at DESC, order_id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map(toOrderView);
  }

  async heldOrders(limit: number): Promise<OrderView[]> {
    const rows = await this.db.query<OrderRow>(
      `SELECT ${ORDER_COLUMNS} FROM rm_orders WHERE held_at IS NOT NULL ORDER BY created_at, order_id LIMIT $1`,
      [limit],
    );
    return rows.map(toOrderView);
  }

  async ordersRoutedTo(provider: string, from: string, to: string): Promise<OrderView[]> {
    const rows = await this.db.query<OrderRow>(
      `SELECT ${ORDER_COLUMNS} FROM rm_orders WHERE provider = $1 AND created_at >= $2::timestamptz AND created_at < $3::timestamptz ORDER BY created_at, order_id`,
      [provider, from, to],
    );
    return rows.map(toOrderView);
  }

  async partner(partnerId: string): Promise<PartnerView | null> {
    const rows = await this.db.query<PartnerRow>(`SELECT ${PARTNER_COLUMNS} FROM rm_partners WHERE partner_id = $1`, [
      partnerId,
    ]);
    return rows.length ? toPartnerView(rows[0]) : null;
  }

  /** Concurrent lookups (webhook deliveries running side by side) share one statement. */
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

  async scopedKeys(partnerId: string, environment: Environment): Promise<ScopedKeyView[]> {
    const rows = await this.db.query<ScopedKeyRow>(
      `SELECT key_id, partner_id, environment, label, scope, per_order_max, daily_max, currency, expires_at, created_at, revoked_at
         FROM rm_key_scopes WHERE partner_id = $1 AND environment = $2 ORDER BY created_at, key_id`,
      [partnerId, environment],
    );
    return rows.map((row) => ({
      keyId: row.key_id,
      partnerId: row.partner_id,
      environment: row.environment,
      label: row.label,
      scope: row.scope,
      perOrderMax: row.per_order_max,
      dailyMax: row.daily_max,
      currency: row.currency,
      expiresAt: row.expires_at === null ? null : iso(row.expires_at),
      createdAt: iso(row.created_at),
      revokedAt: row.revoked_at === null ? null : iso(row.revoked_at),
    }));
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

/** A key with its partner and settings: one row per key (`WHERE` on `k` to be added). */
export const API_KEY_ACCESS_SELECT = `SELECT k.key_hash, k.key_id, k.partner_id, k.environment, k.active,
              p.partner_id AS partner_found, p.name, p.corridor, p.kyc_status, p.created_at, s.settings,
              ks.label, ks.scope, ks.per_order_max, ks.daily_max, ks.expires_at,
              ${ACCESS_CHANGE_PENDING_SQL} AS access_change_pending
         FROM rm_api_keys k
         LEFT JOIN rm_partners p ON p.partner_id = k.partner_id
         LEFT JOIN rm_key_scopes ks ON ks.key_id = k.key_id
         LEFT JOIN rm_partner_settings s ON s.partner_id = k.partner_id AND s.environment = k.environment`;

export function toApiKeyAccess(row: ApiKeyAccessRow): ApiKeyAccess {
  const partner: PartnerView | null =
    row.partner_found !== null &&
    row.name !== null &&
    row.corridor !== null &&
    row.kyc_status !== null &&
    row.created_at !== null
      ? {
          partnerId: row.partner_found,
          name: row.name,
          corridor: row.corridor,
          kycStatus: row.kyc_status,
          createdAt: iso(row.created_at),
        }
      : null;
  return {
    key: { keyId: row.key_id, partnerId: row.partner_id, environment: row.environment, active: row.active },
    partner,
    settings: row.settings ?? defaultSettings(),
    restriction:
      row.scope === null || row.label === null
        ? null
        : {
            label: row.label,
            scope: row.scope,
            perOrderMax: row.per_order_max,
            dailyMax: row.daily_max,
            expiresAt: row.expires_at === null ? null : iso(row.expires_at),
          },
    accessChangePending: row.access_change_pending,
  };
}

export interface ApiKeyAccessRow {
  key_hash: string;
  key_id: string;
  partner_id: string;
  environment: Environment;
  active: boolean;
  partner_found: string | null;
  name: string | null;
  corridor: Corridor | null;
  kyc_status: KycStatus | null;
  created_at: Date | string | null;
  settings: PartnerSettings | null;
  label: string | null;
  scope: KeyScope | null;
  per_order_max: string | null;
  daily_max: string | null;
  expires_at: Date | string | null;
  access_change_pending: boolean;
}

interface ScopedKeyRow {
  key_id: string;
  partner_id: string;
  environment: Environment;
  label: string;
  scope: KeyScope;
  per_order_max: string | null;
  daily_max: string | null;
  currency: Currency;
  expires_at: Date | string | null;
  created_at: Date | string;
  revoked_at: Date | string | null;
}

export interface PartnerRow {
  partner_id: string;
  name: string;
  corridor: Corridor;
  kyc_status: KycStatus;
  created_at: Date | string;
}

export const PARTNER_COLUMNS = 'partner_id, name, corridor, kyc_status, created_at';

export function toPartnerView(row: PartnerRow): PartnerView {
  return {
    partnerId: row.partner_id,
    name: row.name,
    corridor: row.corridor,
    kycStatus: row.kyc_status,
    createdAt: iso(row.created_at),
  };
}

export function toOrderView(row: OrderRow): OrderView {
  return {
    orderId: row.order_id,
    partnerId: row.partner_id,
    environment: row.environment,
    status: row.status,
    amount: decimal(row.amount, row.currency),
    currency: row.currency,
    product: row.product,
    reference: row.reference,
    balanceAfter: decimal(row.balance_after, row.currency),
    operatorRef: row.operator_ref,
    settledAt: row.settled_at === null ? null : iso(row.settled_at),
    refundedAt: row.refunded_at === null ? null : iso(row.refunded_at),
    failureReason: row.failure_reason,
    lateAnswer: row.late_answer,
    answerAfterOutcome: row.answer_after_outcome,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

const iso = (value: Date | string): string => new Date(value).toISOString();

function decimal(text: string, currency: Currency): string {
  // A negative balance means a money invariant was breached; it must stay readable so verify can report it.
  const negative = text.startsWith('-');
  const money = Money.parse(negative ? text.slice(1) : text, currency);
  if (!money) throw new Error(`unreadable amount in read model: ${text}`);
  return negative ? Money.zero(currency).minus(money).toDecimal() : money.toDecimal();
}
