import { randomBytes } from 'node:crypto';
import { SetuSimScenario } from './setu-sim-scenarios';

export type SetuSimPaymentStatus = 'Processing' | 'Success' | 'Failure';

export interface SetuSimFetch {
  refId: string;
  billerId: string;
  consumerNumber: string;
  mobile: string;
  scenario: SetuSimScenario;
  /** How many times its answer was read. */
  reads: number;
  /** Processing until answered; then Success or Failure. */
  status: 'Processing' | 'Success' | 'Failure';
  amountPaise: number;
  dueDate: string;
  billDate: string;
  billNumber: string;
  createdAt: number;
  /** Payments made against it (the first one's refId is the fetch's own). */
  payments: number;
}

export interface SetuSimPayment {
  refId: string;
  fetchRefId: string;
  paymentRefId: string;
  billerId: string;
  consumerNumber: string;
  amountPaise: number;
  mode: string;
  timestamp: string;
  status: SetuSimPaymentStatus;
  /** The status a Processing payment ends in once settle-after has passed; null: never. */
  finalStatus: SetuSimPaymentStatus | null;
  transactionId: string;
  scenario: SetuSimScenario;
  createdAt: number;
  /** Not shown by the transactions list before this time. */
  listedFrom: number;
  /** How long it stays Processing before its final status shows (a biller with pending status: days). */
  settleAfterMs: number;
  /** Its records (payment status, transactions list) carry no paymentRefId (scenario 0017). */
  unreferenced?: boolean;
  /** The failure reason's code once it fails (absent: BRR005, a biller refusal); `npci-connectivity-timeout` leaves it unconfirmed. */
  failureCode?: string;
}

/**
 * A fault of the next calls of a path (any path when null), set by a test: an HTML page with 200, `success: false`
 * with 200, a 200 without `data`, a list field that is not a list, or 429 with Retry-After.
 */
export interface SetuSimFault {
  kind: 'html' | 'unsuccessful' | 'without_data' | 'not_a_list' | 'rate_limited';
  path: string | null;
  remaining: number;
}

export interface SetuSimSubmission {
  paymentRefId: string | null;
  fetchRefId: string | null;
  at: string;
  answer: number;
  code: string | null;
  refId: string | null;
}

/** Everything the Setu simulator remembers, in memory. */
export class SetuSimState {
  readonly tokens = new Map<string, number>();
  readonly fetches = new Map<string, SetuSimFetch>();
  readonly payments: SetuSimPayment[] = [];
  readonly submissions: SetuSimSubmission[] = [];
  /** paymentRefIds whose first attempt was already refused by a "once" scenario. */
  readonly refusedOnce = new Set<string>();
  /** A misbehaving Setu, for tests: when set, every 409 duplicate names this refId instead of the first payment's. */
  duplicatesName: string | null = null;
  /** Faults of the next calls (the control API's `/__sim/faults`). */
  readonly faults: SetuSimFault[] = [];
  /** Customer convenience fees (flat, paise) a test gave billers after the start: the catalog shows them. */
  readonly customerFees = new Map<string, number>();
  tokensIssued = 0;
  private sequence: number;

  constructor(readonly seed: number) {
    this.sequence = (seed % 1000) * 100_000;
  }

  /** A BBPS-style reference id: 35 upper-case letters and digits. */
  newRefId(): string {
    return `SIM${String(this.sequence++).padStart(12, '0')}${randomBytes(10).toString('hex').toUpperCase()}`;
  }

  newTransactionId(): string {
    return `AS01SIM${String(this.sequence++).padStart(13, '0')}`;
  }

  issueToken(ttlMs: number, now: number): string {
    this.tokensIssued++;
    const token = `setu-sim-${this.seed}-${this.tokensIssued}-${randomBytes(12).toString('hex')}`;
    this.tokens.set(token, now + ttlMs);
    return token;
  }

  expireTokens(): number {
    for (const token of this.tokens.keys()) this.tokens.set(token, 0);
    return this.tokens.size;
  }

  /** The fault the next call of this path meets, if any (it is used up). */
  takeFault(path: string): SetuSimFault | null {
    const fault = this.faults.find((candidate) => candidate.remaining > 0 && (candidate.path ?? path) === path);
    if (!fault) return null;
    fault.remaining--;
    return fault;
  }

  paymentByRefId(refId: string): SetuSimPayment | undefined {
    return this.payments.find((payment) => payment.refId === refId);
  }

  /** The latest payment under a paymentRefId. */
  paymentByPaymentRef(paymentRefId: string): SetuSimPayment | undefined {
    return [...this.payments].reverse().find((payment) => payment.paymentRefId === paymentRefId);
  }
}
