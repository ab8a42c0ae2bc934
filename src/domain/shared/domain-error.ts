/**
 * Business refusals as values. The codes are the partner-facing codes of the
 * interface specification where one exists; the edge maps each to an HTTP status.
 */
export type DomainErrorCode =
  | 'validation_failed'
  | 'insufficient_balance'
  | 'amount_out_of_range'
  | 'operator_not_found_or_wrong_corridor'
  | 'not_found'
  | 'invalid_state'
  | 'currency_mismatch'
  | 'key_cap_exceeded'
  /** The main key that made a request was revoked before the request's change was decided. */
  | 'invalid_api_key';

export interface DomainError {
  readonly code: DomainErrorCode;
  readonly detail: string;
}

export const domainError = (code: DomainErrorCode, detail: string): DomainError => ({ code, detail });
