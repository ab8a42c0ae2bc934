import { ACCESS_CHANGE_PENDING_SQL } from '../access/sql-access-fences';
import { ApiKeyAccess, KeyRestriction, MainKeyView, PartnerView } from '../../application/ports/read-models.port';
import { currencyOf, Corridor } from '../../domain/corridor/corridor';
import { isCurrency } from '../../domain/money/currency';
import { Money } from '../../domain/money/money';
import { KEY_SCOPES, KeyScope } from '../../domain/partner/scoped-key';
import { PartnerSettings, defaultSettings } from '../../domain/partner/partner-settings';
import { KycStatus } from '../../domain/partner/partner.events';
import { Actor } from '../../domain/shared/actor';
import { Environment } from '../../domain/shared/environment';
import { iso } from './read-model-values';

const KEY_COLUMNS = `k.key_id, k.partner_id, k.environment, k.active, k.issued_at, k.revoked_at, k.kind, k.label, k.scope,
  k.per_order_max, k.daily_max, k.currency, k.expires_at, k.rate_limit, k.created_by_type, k.created_by_id, k.revoke_reason`;

export const KEY_RECORD_COLUMNS = `${KEY_COLUMNS}, u.last_used_at`;

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
export function restrictionOf(row: KeyRecordRow): { restriction: KeyRestriction | null; problem: string | null } {
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

export function provenanceOf(row: KeyRecordRow): MainKeyView {
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

export interface KeyRecordRow {
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
