import { ErrorCode } from '../../../application/shared/service-error';

/** The one table from error code to HTTP status. */
export const STATUS_OF_ERROR: Record<ErrorCode, number> = {
  validation_failed: 400,
  idempotency_key_required: 400,
  invalid_api_key: 401,
  invalid_admin_token: 401,
  insufficient_balance: 402,
  kyc_required: 403,
  ip_not_allowed: 403,
  scope_forbidden: 403,
  role_forbidden: 403,
  key_cap_exceeded: 403,
  operator_not_found_or_wrong_corridor: 404,
  not_found: 404,
  idempotency_conflict: 409,
  invalid_state: 409,
  invariant_breach: 409,
  currency_mismatch: 409,
  amount_out_of_range: 422,
  rate_limit_exceeded: 429,
  internal_error: 500,
  provider_unavailable: 503,
  service_unavailable: 503,
  access_change_pending: 503,
};
