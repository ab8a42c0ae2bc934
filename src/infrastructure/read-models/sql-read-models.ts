import { ACCESS_CHANGE_PENDING_SQL } from '../access/sql-access-fences';
import {
  ApiKeyAccess,
  BalanceView,
  OrderListFilter,
  OrderView,
  PartnerView,
  ApiKeyView,
  KeyRestriction,
  MainKeyView,
  ReadModels,
  ScopedKeyView,
} from '../../application/ports/read-models.port';
import { KEY_SCOPES, KeyScope } from '../../domain/partner/scoped-key';
import { Actor } from '../../domain/shared/actor';
import { currencyOf } from '../../domain/corridor/corridor';
import { isCurrency } from '../../domain/money/currency';
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
import { publicStatusClauses } from './public-status-clauses';
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

const PUBLIC_STATUS_CLAUSES: Readonly<Record<PublicStatus, string>> = publicStatusClauses();

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

/** The columns of a key's own record (`k`). */
const KEY_COLUMNS = `k.key_id, k.partner_id, k.environment, k.active, k.issued_at, k.revoked_at, k.kind, k.label, k.scope,
  k.per_order_max, k.daily_max, k.currency, k.expires_at, k.rate_limit, k.created_by_type, k.created_by_id, k.revoke_reason`;

/** The same, with its last use (`u`, api_key_last_use), for the key lists. */
const KEY_RECORD_COLUMNS = `${KEY_COLUMNS}, u.last_used_at`;

/**
 * A key with its partner and settings: one row per key (`WHERE` on `k` to be added). Admission
 * does not need the last use, and does not read it.
 */
export const API_KEY_ACCESS_SELECT = `SELECT k.key_hash, ${KEY_COLUMNS}, NULL::timestamptz AS last_used_at,
              p.partner_id AS partner_found, p.name, p.corridor, p.kyc_status, p.created_at, s.settings,
              ${ACCESS_CHANGE_PENDING_SQL} AS access_change_pending
         FROM rm_api_keys k
         LEFT JOIN rm_partners p ON p.partner_id = k.partner_id
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
  const { restriction, problem } = restrictionOf(row);
  const currencyProblem =
    restriction && partner && row.currency !== currencyOf(partner.corridor)
      ? `its caps are in ${String(row.currency)}, not the partner's ${currencyOf(partner.corridor)}`
      : null;
  return {
    key: { keyId: row.key_id, partnerId: row.partner_id, environment: row.environment, active: row.active },
    partner,
    settings: row.settings ?? defaultSettings(),
    restriction,
    recordProblem: problem ?? currencyProblem,
    accessChangePending: row.access_change_pending,
  };
}

/**
 * A key's terms as its own row records them, and what is wrong with the row if anything: the
 * record decides whether the key is restricted (`kind`), never the presence of terms, so a
 * restricted key whose terms are missing or unreadable is refused rather than taken for a main key.
 */
function restrictionOf(row: KeyRecordRow): { restriction: KeyRestriction | null; problem: string | null } {
  const terms = [row.label, row.scope, row.per_order_max, row.daily_max, row.currency, row.expires_at, row.rate_limit];
  if (row.kind === 'main') {
    return terms.every((term) => term === null)
      ? { restriction: null, problem: null }
      : { restriction: null, problem: 'a main key with the terms of a restricted key' };
  }
  if (row.kind !== 'restricted') return { restriction: null, problem: `a key of unknown kind (${String(row.kind)})` };
  const { label, scope, currency } = row;
  if (label === null || scope === null || !KEY_SCOPES.includes(scope) || currency === null || !isCurrency(currency)) {
    return { restriction: null, problem: 'a restricted key without its terms' };
  }
  const capsReadable = [row.per_order_max, row.daily_max].every(
    (cap) => cap === null || Money.parse(cap, currency) !== null,
  );
  const capsAllowed = scope === 'transact' || (row.per_order_max === null && row.daily_max === null);
  const rateLimitReadable = row.rate_limit === null || (Number.isInteger(row.rate_limit) && row.rate_limit > 0);
  if (!capsReadable || !capsAllowed || !rateLimitReadable) {
    return { restriction: null, problem: 'a restricted key whose terms are unreadable' };
  }
  return {
    restriction: {
      label,
      scope,
      perOrderMax: row.per_order_max,
      dailyMax: row.daily_max,
      expiresAt: row.expires_at === null ? null : iso(row.expires_at),
      rateLimitPerMinute: row.rate_limit,
    },
    problem: null,
  };
}

const ACTOR_TYPES: readonly string[] = ['partner_key', 'operator', 'system'];

function provenanceOf(row: KeyRecordRow): MainKeyView {
  const createdBy =
    row.created_by_type !== null && row.created_by_id !== null && ACTOR_TYPES.includes(row.created_by_type)
      ? ({ type: row.created_by_type, id: row.created_by_id } as Actor)
      : null;
  return {
    keyId: row.key_id,
    createdAt: iso(row.issued_at),
    createdBy,
    lastUsedAt: row.last_used_at === null ? null : iso(row.last_used_at),
  };
}

/** A row of rm_api_keys with its last use; terms and kind as stored, whatever they hold. */
interface KeyRecordRow {
  key_id: string;
  partner_id: string;
  environment: Environment;
  active: boolean;
  issued_at: Date | string;
  revoked_at: Date | string | null;
  kind: string | null;
  label: string | null;
  scope: KeyScope | null;
  per_order_max: string | null;
  daily_max: string | null;
  currency: string | null;
  expires_at: Date | string | null;
  rate_limit: number | null;
  created_by_type: string | null;
  created_by_id: string | null;
  revoke_reason: string | null;
  last_used_at: Date | string | null;
}

export interface ApiKeyAccessRow extends KeyRecordRow {
  key_hash: string;
  partner_found: string | null;
  name: string | null;
  corridor: Corridor | null;
  kyc_status: KycStatus | null;
  created_at: Date | string | null;
  settings: PartnerSettings | null;
  access_change_pending: boolean;
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
