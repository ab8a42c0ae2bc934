/**
 * What the Setu simulator does with a bill, chosen by the last four digits of the consumer
 * number (the biller's first customer parameter). Unlisted suffixes: a 500.00 bill, paid.
 */
export type SetuSimScenario =
  | 'paid' // 0001: bill 500.00; payment Processing, then Success once settle-after has passed
  | 'bbps_failure' // 0002: bill 1500.00; payment Processing, then Failure (a BBPS error) once settle-after has passed
  | 'processing_forever' // 0003: bill 850.50; payment Processing for good
  | 'no_bill_due' // 0004: the fetch fails: BFR004 "no bill due"
  | 'unknown_customer' // 0005: the fetch fails: ERR004 "customer not found"
  | 'fetch_forever' // 0006: the fetch stays Processing for good
  | 'lost_then_success' // 0007: payment recorded (ends in Success), the answer never comes (connection held, then dropped)
  | 'lost_then_failure' // 0008: payment recorded (ends in Failure), the answer never comes
  | 'unavailable_once' // 0009: the first payment request gets 503 with nothing recorded; later ones are taken
  | 'error_after_recording' // 0010: payment recorded (ends in Success), answered 500
  | 'lost_and_unlisted' // 0011: as 0007, and the transactions list shows it only after list-lag-ms
  | 'insufficient_funds' // 0012: the payment request is refused: insufficient-funds (nothing recorded)
  | 'overdue' // 0013: bill 2400.00, due date passed; paid
  | 'rate_limited_once' // 0014: the first payment request gets 429 with Retry-After, nothing recorded; later ones taken
  | 'html_after_recording' // 0015: payment recorded (ends in Success), answered 200 with an HTML page
  | 'unsuccessful_after_recording' // 0016: payment recorded (ends in Success), answered 200 with success: false
  | 'unreferenced_record'; // 0017: payment recorded (ends in Success); its records (status, list) carry no paymentRefId

const SCENARIOS: Record<string, SetuSimScenario> = {
  '0001': 'paid',
  '0002': 'bbps_failure',
  '0003': 'processing_forever',
  '0004': 'no_bill_due',
  '0005': 'unknown_customer',
  '0006': 'fetch_forever',
  '0007': 'lost_then_success',
  '0008': 'lost_then_failure',
  '0009': 'unavailable_once',
  '0010': 'error_after_recording',
  '0011': 'lost_and_unlisted',
  '0012': 'insufficient_funds',
  '0013': 'overdue',
  '0014': 'rate_limited_once',
  '0015': 'html_after_recording',
  '0016': 'unsuccessful_after_recording',
  '0017': 'unreferenced_record',
};

export const setuScenarioOf = (consumerNumber: string): SetuSimScenario =>
  SCENARIOS[consumerNumber.replace(/\D/g, '').slice(-4)] ?? 'paid';

/** The bill amount (paise) a fetch presents for a scenario. */
export function billPaiseOf(scenario: SetuSimScenario): number {
  switch (scenario) {
    case 'bbps_failure':
      return 150_000;
    case 'processing_forever':
      return 85_050;
    case 'overdue':
      return 240_000;
    default:
      return 50_000;
  }
}
