import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../partner/dto/error-response.dto';

/** What each error status means on every partner route, unless a route says more. */
const COMMON: Record<number, string> = {
  400: 'validation_failed: a missing or malformed field, named at the start of `detail`',
  401: 'invalid_api_key: the key is missing, malformed, wrong or revoked',
  402: 'insufficient_balance: the wallet holds less than the amount',
  403: 'kyc_required (a live key without KYC approval), ip_not_allowed (the caller address is not in the allowlist) or scope_forbidden (a restricted key outside its scope: a read-only key placing an order, a restricted key managing keys or settings or re-sending a webhook)',
  404: 'not_found',
  409: 'idempotency_conflict: the Idempotency-Key was used with a different body, or that request is still in progress',
  413: 'validation_failed: the request body is too large',
  415: 'validation_failed: the body must be sent as application/json',
  422: 'amount_out_of_range',
  429: "rate_limit_exceeded: the request limit of your environment's keys together (or a restricted key's own lower limit) was reached; see Retry-After",
  500: 'internal_error: a server fault; safe to retry with the same Idempotency-Key',
  503: "access_change_pending: a revocation of this partner's access (KYC suspension, key regeneration, IP allowlist change) is being applied; retry in a moment. On money routes also provider_unavailable: no provider serves this operator or biller in this environment (no live route, or its provider is not configured or not answering), or it did not answer in time; no money was moved",
};

/** Statuses every authenticated partner route can answer. */
const ALWAYS = [401, 403, 429, 500, 503];

/** Documents the Error body for the statuses every partner route shares plus those given, with optional texts. */
export function ApiErrorResponses(statuses: Record<number, string | true>): MethodDecorator & ClassDecorator {
  const all = new Map<number, string>(ALWAYS.map((status) => [status, COMMON[status]]));
  for (const [status, text] of Object.entries(statuses))
    all.set(Number(status), text === true ? COMMON[Number(status)] : text);
  return applyDecorators(
    ...[...all.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, description]) => ApiResponse({ status, description, type: ErrorResponseDto })),
  );
}
