import { randomBytes } from 'node:crypto';
import { SimClock } from './sim-clock';
import { SimScenario } from './sim-scenarios';

export type SimApi = 'airtime' | 'utilities';
export type SimStatus = 'SUCCESSFUL' | 'PROCESSING' | 'FAILED' | 'REFUNDED';

export interface SimTransaction {
  api: SimApi;
  id: number;
  /** customIdentifier (topup) or referenceId (payment). */
  reference: string | null;
  status: SimStatus;
  /** The status a PROCESSING transaction ends in, at `settlesAt`; null: never. */
  finalStatus: SimStatus | null;
  /** When a PROCESSING transaction takes its final status (the simulator's clock). */
  settlesAt: number;
  scenario: SimScenario;
  createdAt: number;
  /** Topup: operator; payment: biller. */
  productId: number;
  productName: string;
  country: string;
  /** Recipient number (topup) or account number (payment). */
  target: string;
  localAmount: bigint;
  localCurrency: string;
  /** What the answers report as asked (`requestedAmount`) and delivered (`deliveredAmount`, a payment's `amount`). */
  requested: { amount: bigint; currency: string };
  delivered: { amount: bigint; currency: string };
  cost: bigint;
  operatorTransactionId: string | null;
  balanceAfter: bigint;
  /** Before this time the transaction is in flight: recorded, but no look-up (status, report, repeated identifier) shows it. */
  visibleAt: number;
  /** Set by a test: the text the answers give as its date (transactionDate, submittedAt), instead of its own. */
  writtenDate?: string;
  /** How much later than `visibleAt` the reports list it (a report that lags behind the status). */
  reportLagMs: number;
}

export interface SimSubmission {
  api: SimApi;
  reference: string | null;
  target: string;
  at: string;
  answer: number;
  errorCode: string | null;
  transactionId: number | null;
}

export interface SimToken {
  api: SimApi;
  issuedAt: number;
  expiresAt: number;
}

/** Everything the simulator remembers, in memory. */
export class SimState {
  readonly tokens = new Map<string, SimToken>();
  readonly transactions: SimTransaction[] = [];
  readonly submissions: SimSubmission[] = [];
  /** Calls of the APIs turned away 401 (path and errorCode), before anything was read of them. */
  readonly unauthorized: { path: string; errorCode: string }[] = [];
  /** References whose first attempt was already refused by a "once" scenario. */
  readonly refusedOnce = new Set<string>();
  /**
   * Faults set through the control API: the next N calls of the APIs answer 429, the next N
   * report reads 404 ("try again later"), the next N balance reads 503, the next N calls of the APIs
   * answer 200 with an HTML page.
   */
  readonly faults = { rateLimitNext: 0, reportsUnavailableNext: 0, balanceUnavailableNext: 0, htmlNext: 0 };
  /** How long each page of a transaction report takes to come (set by a test; 0: at once). */
  reportPageDelayMs = 0;
  tokensIssued = 0;
  private nextId: number;

  constructor(
    readonly seed: number,
    public balance: bigint,
    readonly currency: string,
    /** The zone of the reports' wall-clock times (transaction dates, range parameters). */
    readonly reportTimeZone = 'America/New_York',
    readonly clock = new SimClock(),
  ) {
    this.nextId = 10_000 + (seed % 1000) * 1000;
  }

  now(): number {
    return this.clock.now();
  }

  newTransactionId(): number {
    return this.nextId++;
  }

  issueToken(api: SimApi, ttlMs: number, now: number): string {
    this.tokensIssued++;
    const token = `sim-${api}-${this.seed}-${this.tokensIssued}-${randomBytes(12).toString('hex')}`;
    this.tokens.set(token, { api, issuedAt: now, expiresAt: now + ttlMs });
    return token;
  }

  expireTokens(): number {
    const count = this.tokens.size;
    for (const token of this.tokens.values()) token.expiresAt = 0;
    return count;
  }

  /** A transaction the reports list now: visible, and past the report's lag. */
  reported(transaction: SimTransaction): boolean {
    return transaction.visibleAt + transaction.reportLagMs <= this.now();
  }

  /** A transaction a look-up would show under the reference (one still in flight is not shown). */
  visibleByReference(api: SimApi, reference: string, now: number): SimTransaction | undefined {
    return this.transactions.find(
      (transaction) => transaction.api === api && transaction.reference === reference && transaction.visibleAt <= now,
    );
  }
}
