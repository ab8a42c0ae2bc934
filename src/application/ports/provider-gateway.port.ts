import { Currency } from '../../domain/money/currency';
import { UpstreamTransaction } from '../../domain/reconciliation/reconciliation';
import { FailureBasis } from '../../domain/transaction/transaction.events';
import { OrderProduct } from '../../domain/wallet/order-product';
import { RouteTarget } from '../../domain/routing/route';

export interface ProviderOrder {
  orderId: string;
  amount: string;
  currency: Currency;
  product: OrderProduct;
  placedAt: string;
  /**
   * True when an earlier submission may have reached the provider: the adapter looks the order up, and resends it
   * only if its provider never performs a repeated identifier twice (decision 0040).
   */
  resubmission?: boolean;
  /**
   * When an attempt of this order first may have reached the provider without anything telling how
   * it ended; null or absent: no attempt is in doubt. An adapter confirms an order's absence only
   * once its look-up window, counted from this time, has passed.
   */
  inDoubtSince?: string | null;
  /** The provider's id of the order, when an earlier answer gave one (a poll can ask by it). */
  providerReference?: string | null;
  /** Live: the provider and its id for the product, as fixed when the order was placed; null in the sandbox. */
  route: RouteTarget | null;
}

/** What a failure rests on (defined with the order's events, `domain/transaction`; decision 0039). */
export type { FailureBasis };

/** A final answer: the order succeeded, or failed on the ground given. */
export type FinalProviderOutcome = Extract<ProviderOutcome, { status: 'succeeded' | 'failed' }>;

/**
 * What a provider says about an order. `unknown`: nothing decides the order or shows the provider holds it; asked
 * again after `retryAfterMs` (null: the caller's default), and a submission ending so puts the order in doubt.
 * `mismatch`: a success that is not the order as placed; the order is held and finance gets a finding (decision 0119).
 */
export type ProviderOutcome =
  | { status: 'succeeded'; operatorRef: string }
  | { status: 'failed'; reason: string; basis: FailureBasis }
  | { status: 'pending'; providerReference: string | null; pollAfterMs: number | null }
  | { status: 'unknown'; reason: string; retryAfterMs: number | null }
  | { status: 'mismatch'; reason: string; operatorRef: string; upstream: UpstreamTransaction };

export interface OutstandingBill {
  customerName: string;
  amount: string;
  dueDate: string;
  billPeriod: string;
  billReference: string;
  overdue: boolean;
  /**
   * The provider's own handle of this fetch, which a payment of the bill must name (Setu's fetch
   * `refId`); absent where the provider pays without one. Kept with the fetch and carried by the
   * order (`OrderProduct.providerBillRef`), never shown to partners.
   */
  providerBillRef?: string;
}

export interface BillQuery {
  billerId: number;
  consumerNumber: string;
  currency: Currency;
  params: Record<string, string>;
  /** Live: the routed provider and its biller id; null in the sandbox. */
  route: RouteTarget | null;
}

/**
 * An upstream provider. Every call gets a signal that is aborted when the caller stops waiting
 * (the call's deadline); an adapter should give up its request then.
 */
export interface ProviderGateway {
  /** Submits an order; the order id is the upstream idempotency key, so a repeated submit is safe. */
  submit(order: ProviderOrder, now: Date, signal?: AbortSignal): Promise<ProviderOutcome>;
  /** Asks for the outcome of a pending order. */
  poll(order: ProviderOrder, now: Date, signal?: AbortSignal): Promise<ProviderOutcome>;
  /**
   * The outstanding bill of a consumer, or null when the biller knows no such consumer;
   * BillFetchUnsupportedError when the provider cannot fetch bills; NoBillDueError when the
   * biller says nothing is due.
   */
  fetchBill(request: BillQuery, now: Date, signal?: AbortSignal): Promise<OutstandingBill | null>;
  /**
   * The final answer this provider gives without being asked, when fixed in advance (the sandbox's instant
   * outcomes); null or absent when the order has to be submitted (decision 0112).
   */
  answerWithoutCall?(order: ProviderOrder): FinalProviderOutcome | null;
  /**
   * The provider's documented horizon for a product: how long after an order's placement it may still give
   * its final word. A held order is asked about until then, and no absence is confirmed before it
   * (decision 0117). Absent: 0 (a held order is not asked about again).
   */
  deliveryHorizonMs?(kind: OrderProduct['kind']): number;
}

/**
 * The provider did not answer in time, could not be reached, or answered nothing usable: nothing
 * is known about the call's effect. A submission that fails so puts the order in doubt.
 */
export class ProviderUnavailableError extends Error {
  /** How long the provider asked to be left alone (a 429's `Retry-After`); the job runs again no earlier. */
  readonly retryAfterMs: number | null;

  constructor(message: string, options: { retryAfterMs?: number | null } = {}) {
    super(message);
    this.name = 'ProviderUnavailableError';
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}

/**
 * The call was not sent at all (the provider's breaker is open, no token could be had, the
 * connection was refused, the provider's rate limit is still running): the provider cannot have
 * received it, so a submission that fails so does not put the order in doubt.
 */
export class ProviderNotSentError extends ProviderUnavailableError {
  constructor(message: string, options: { retryAfterMs?: number | null } = {}) {
    super(message, options);
    this.name = 'ProviderNotSentError';
  }
}

/**
 * Why bills of a biller cannot be fetched, as the partner may be told: the biller charges a customer
 * convenience fee this service cannot show or collect (decision 0122), or any
 * other reason of the provider's (the message, for the log only).
 */
export type BillFetchRefusal = 'convenience_fee' | 'not_fetchable';

/** The provider cannot fetch bills of this biller: there is no bill to show, and none may be invented. */
export class BillFetchUnsupportedError extends Error {
  constructor(
    message: string,
    readonly refusal: BillFetchRefusal = 'not_fetchable',
  ) {
    super(message);
    this.name = 'BillFetchUnsupportedError';
  }
}

/** The biller answered that nothing is due for this consumer: there is no bill to show or to pay. */
export class NoBillDueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoBillDueError';
  }
}

/**
 * The provider adapters the service runs: the sandbox one, and the live ones configured, by the
 * name routes use ("reloadly"). Which live provider serves an order is the order's route.
 */
export interface ProviderDirectory {
  sandbox(): ProviderGateway;
  /** The live adapter of that name, or null when it is not configured. */
  live(name: string): ProviderGateway | null;
  /** Names of the configured live providers. */
  liveNames(): string[];
}

export const PROVIDER_DIRECTORY = Symbol('ProviderDirectory');
