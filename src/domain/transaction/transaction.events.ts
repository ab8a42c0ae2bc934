import { Actor } from '../shared/actor';
import { Environment } from '../shared/environment';
import { Currency } from '../money/currency';
import { OrderProduct } from '../wallet/order-product';
import { RouteTarget } from '../routing/route';

/** Facts about one order, in its own stream. INITIATED and DISPUTED are internal and never shown to partners. */
export type TransactionInitiated = {
  type: 'TransactionInitiated';
  data: {
    orderId: string;
    partnerId: string;
    environment: Environment;
    amount: string;
    currency: Currency;
    reference: string | null;
    product: OrderProduct;
    placedAt: string;
    /** As the debit fixed it (live orders). */
    route?: RouteTarget;
  };
};

export type TransactionSubmitted = {
  type: 'TransactionSubmitted';
  data: { orderId: string; providerReference: string | null; submittedAt: string };
};

export type TransactionSettled = {
  type: 'TransactionSettled';
  data: { orderId: string; operatorRef: string; settledAt: string; resolvedBy: Actor | null; reason: string | null };
};

export type TransactionFailed = {
  type: 'TransactionFailed';
  data: { orderId: string; reason: string; failedAt: string; resolvedBy: Actor | null };
};

export type TransactionDisputed = {
  type: 'TransactionDisputed';
  data: { orderId: string; reason: string; disputedAt: string };
};

/**
 * The provider's final answer, arriving after the order was held: it changes no status (the
 * operator decides a held order), but it is kept as evidence for that decision.
 */
export type ProviderAnsweredAfterHold = {
  type: 'ProviderAnsweredAfterHold';
  data: {
    orderId: string;
    outcome: 'succeeded' | 'failed';
    operatorRef: string | null;
    reason: string | null;
    answeredAt: string;
  };
};

/**
 * A provider's final answer after the order already had its outcome, when it says otherwise or
 * the outcome was an operator's decision (the provider had not answered then). It changes
 * nothing: an outcome is final, and money follows it. It is the record finance acts on (a
 * refunded order the provider says succeeded, a settled one it says failed).
 */
export type ProviderAnsweredAfterOutcome = {
  type: 'ProviderAnsweredAfterOutcome';
  data: {
    orderId: string;
    outcome: 'succeeded' | 'failed';
    operatorRef: string | null;
    reason: string | null;
    answeredAt: string;
    /** The order's outcome when the answer came. */
    recordedStatus: 'SUCCESS' | 'FAILED';
    /** The answer says the opposite of the recorded outcome. */
    contradicts: boolean;
  };
};

export type TransactionEvent =
  | TransactionInitiated
  | TransactionSubmitted
  | TransactionSettled
  | TransactionFailed
  | TransactionDisputed
  | ProviderAnsweredAfterHold
  | ProviderAnsweredAfterOutcome;

export const TRANSACTION_EVENT_TYPES: ReadonlySet<string> = new Set([
  'TransactionInitiated',
  'TransactionSubmitted',
  'TransactionSettled',
  'TransactionFailed',
  'TransactionDisputed',
  'ProviderAnsweredAfterHold',
  'ProviderAnsweredAfterOutcome',
]);

export const transactionStreamId = (orderId: string): string => `order-${orderId}`;
