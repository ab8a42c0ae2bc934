/**
 * What the simulator does with an order, chosen by the last four digits of the recipient's number
 * (topup) or the subscriber's account number (bill payment). Unlisted suffixes succeed at once.
 */
export type SimScenario =
  | 'success' // 0001: SUCCESSFUL in the answer
  | 'refused' // 0002: refused with a definitive error code (INVALID_RECIPIENT_PHONE; payments: INVALID_AMOUNT), nothing recorded
  | 'processing_then_success' // 0003: PROCESSING, SUCCESSFUL once settle-after has passed
  | 'processing_then_failure' // 0004: PROCESSING, FAILED (money returned) once settle-after has passed
  | 'processing_forever' // 0005: PROCESSING for good
  | 'slow_success' // 0006: SUCCESSFUL, answered after slow-ms
  | 'timeout_then_success' // 0007: recorded SUCCESSFUL, the answer never comes (connection held, then dropped)
  | 'timeout_then_failure' // 0008: recorded FAILED, the answer never comes
  | 'unavailable_once' // 0009: the first attempt gets 503 with nothing recorded; later attempts succeed
  | 'error_after_recording' // 0010: recorded SUCCESSFUL, answered 500
  | 'cannot_process_once' // 0011: the first attempt gets TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT, nothing recorded; later attempts succeed
  | 'in_flight_then_success' // 0012: recorded SUCCESSFUL (the balance drawn, the number recharged), invisible to look-ups for invisible-ms; the answer never comes
  | 'processing_then_refunded' // 0013: PROCESSING, then REFUNDED (money returned) once settle-after has passed; the topup status answer then wraps no transaction
  | 'rate_limited' // 0014: 429 RATE_LIMIT_REACHED, nothing recorded
  | 'failed_but_recorded' // 0015: 400 TOPUP_TRANSACTION_FAILED (payments: 500), yet recorded SUCCESSFUL, invisible to look-ups for invisible-ms
  | 'report_lag' // 0016: recorded SUCCESSFUL, the answer never comes; its status shows it, the report only report-lag-ms later (simulator's clock)
  | 'long_processing_then_success' // 0017: PROCESSING, SUCCESSFUL once long-settle-after has passed (simulator's clock)
  | 'long_processing_then_failure' // 0018: PROCESSING, FAILED (money returned) once long-settle-after has passed
  | 'long_processing_then_refunded' // 0019: PROCESSING, REFUNDED (money returned) once long-settle-after has passed
  | 'html_after_recording' // 0020: recorded SUCCESSFUL, answered 200 with an HTML page instead of the transaction
  | 'rate_limited_once' // 0021: the first attempt gets 429 RATE_LIMIT_REACHED with Retry-After, nothing recorded; later attempts succeed
  | 'delivered_less' // 0022: SUCCESSFUL, but delivered (a payment: paid) a tenth short of the amount asked
  | 'delivered_in_account_currency'; // 0023: SUCCESSFUL, but delivered (a payment: paid) in the account's currency, at the rate

const SCENARIOS: Record<string, SimScenario> = {
  '0001': 'success',
  '0002': 'refused',
  '0003': 'processing_then_success',
  '0004': 'processing_then_failure',
  '0005': 'processing_forever',
  '0006': 'slow_success',
  '0007': 'timeout_then_success',
  '0008': 'timeout_then_failure',
  '0009': 'unavailable_once',
  '0010': 'error_after_recording',
  '0011': 'cannot_process_once',
  '0012': 'in_flight_then_success',
  '0013': 'processing_then_refunded',
  '0014': 'rate_limited',
  '0015': 'failed_but_recorded',
  '0016': 'report_lag',
  '0017': 'long_processing_then_success',
  '0018': 'long_processing_then_failure',
  '0019': 'long_processing_then_refunded',
  '0020': 'html_after_recording',
  '0021': 'rate_limited_once',
  '0022': 'delivered_less',
  '0023': 'delivered_in_account_currency',
};

export const scenarioOf = (number: string): SimScenario => SCENARIOS[number.replace(/\D/g, '').slice(-4)] ?? 'success';
