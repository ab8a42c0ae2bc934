/**
 * What the simulator does with an order, chosen by the last four digits of the recipient's number
 * (topup) or the subscriber's account number (bill payment). Unlisted suffixes succeed at once.
 */
export type SimScenario =
  | 'success' // 0001: SUCCESSFUL in the answer
  | 'refused' // 0002: refused with a definitive error code, nothing recorded
  | 'processing_then_success' // 0003: PROCESSING, SUCCESSFUL once settle-after has passed
  | 'processing_then_failure' // 0004: PROCESSING, FAILED (money returned) once settle-after has passed
  | 'processing_forever' // 0005: PROCESSING for good
  | 'slow_success' // 0006: SUCCESSFUL, answered after slow-ms
  | 'timeout_then_success' // 0007: recorded SUCCESSFUL, the answer never comes (connection held, then dropped)
  | 'timeout_then_failure' // 0008: recorded FAILED, the answer never comes
  | 'unavailable_once' // 0009: the first attempt gets 503 with nothing recorded; later attempts succeed
  | 'error_after_recording' // 0010: recorded SUCCESSFUL, answered 500
  | 'cannot_process_once'; // 0011: the first attempt gets TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT, nothing recorded; later attempts succeed

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
};

export const scenarioOf = (number: string): SimScenario => SCENARIOS[number.replace(/\D/g, '').slice(-4)] ?? 'success';
