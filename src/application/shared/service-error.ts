import { DomainError } from '../../domain/shared/domain-error';

/**
 * Every refusal the service can give, by code. The partner-facing codes are the
 * interface specification's; the others are in decision 0087.
 */
export type ErrorCode =
  | DomainError['code']
  | 'idempotency_key_required'
  | 'kyc_required'
  | 'ip_not_allowed'
  | 'idempotency_conflict'
  | 'rate_limit_exceeded'
  | 'internal_error'
  | 'provider_unavailable'
  | 'service_unavailable'
  | 'access_change_pending'
  | 'scope_forbidden'
  | 'invalid_admin_token'
  | 'role_forbidden'
  | 'invariant_breach';

export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string | null = null,
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = 'ServiceError';
  }

  static from(error: DomainError): ServiceError {
    return new ServiceError(error.code, error.detail);
  }
}
