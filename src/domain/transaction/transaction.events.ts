import { Actor } from '../shared/actor';
import { Environment } from '../shared/environment';
import { Currency } from '../money/currency';
import { OrderProduct } from '../wallet/order-product';
import { RouteTarget } from '../routing/route';
import { EventStream, EventTypeTable, typesOf } from '../shared/event-types';

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

/** What the provider answered when asked at the moment an operator resolved the order (live orders). */
export type ProviderAnswerAtResolution = {
  /** `no_answer`: the provider could not be asked or did not answer in time. */
  word: 'succeeded' | 'failed' | 'pending' | 'unknown' | 'mismatch' | 'no_answer';
  detail: string;
  askedAt: string;
};

/** What a manual resolution records beside the operator: the provider's answer then, and whether it was overridden. */
type ResolutionEvidence = {
  providerAnswer?: ProviderAnswerAtResolution;
  /** An owner resolved against the provider's answer (decision 0118). */
  againstProvider?: boolean;
};

export type TransactionSettled = {
  type: 'TransactionSettled';
  data: {
    orderId: string;
    operatorRef: string;
    settledAt: string;
    resolvedBy: Actor | null;
    reason: string | null;
  } & ResolutionEvidence;
};

/**
 * What a failure rests on: our pre-check (`not_sent`), a refusal of this attempt (`refused`), the provider's
 * record of the order, or its absence after the look-up window. Once an attempt may have reached the
 * provider, only the last two fail the order (decision 0039).
 */
export type FailureBasis = 'not_sent' | 'refused' | 'provider_record' | 'absence_confirmed';

/** The failures that speak of one attempt only, not of the order at the provider. */
export type AttemptFailureBasis = Extract<FailureBasis, 'not_sent' | 'refused'>;

export const isAttemptFailure = (basis: FailureBasis): basis is AttemptFailureBasis =>
  basis === 'not_sent' || basis === 'refused';

export type TransactionFailed = {
  type: 'TransactionFailed';
  data: {
    orderId: string;
    reason: string;
    failedAt: string;
    resolvedBy: Actor | null;
    /** A provider's failure: what it rests on. Absent for an operator's resolution (and for failures recorded before it existed). */
    basis?: FailureBasis;
  } & ResolutionEvidence;
};

export type TransactionDisputed = {
  type: 'TransactionDisputed';
  data: { orderId: string; reason: string; disputedAt: string };
};

/**
 * The provider's final answer, arriving after the order was held, as logs recorded it before a held order's
 * provider word decided it (decision 0117): no longer written, still read.
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
 * A provider's final answer after the order's outcome, when it says otherwise or the outcome was an
 * operator's. It changes nothing (an outcome is final); finance acts on it (decision 0035).
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

/**
 * An attempt may have reached the provider and nothing tells how it ended. From then on only the provider's
 * record of the order, or its confirmed absence, may fail it (decision 0039); the first such attempt starts
 * the provider's look-up window.
 */
export type TransactionAttemptInDoubt = {
  type: 'TransactionAttemptInDoubt';
  data: { orderId: string; reason: string; at: string };
};

/**
 * A submission run that sent nothing: the provider was not reached (its breaker was open, no
 * token, the connection refused, its rate limit still running). Its run number tells the next run
 * that the run before it cannot have placed the order.
 */
export type TransactionAttemptNotSent = {
  type: 'TransactionAttemptNotSent';
  data: { orderId: string; attempt: number; reason: string; at: string };
};

/** A look-up of an order in doubt, or of a held one, that found nothing decisive yet: evidence for an operator. */
export type TransactionLookedUp = {
  type: 'TransactionLookedUp';
  data: { orderId: string; result: string; at: string };
};

/**
 * A failure that rests on one attempt (not sent, or refused) arriving once an earlier attempt may
 * have reached the provider: it does not fail the order, which is still followed by its identifier
 * (and held for an operator at the stuck-order limit). Kept as evidence.
 */
export type TransactionFailureWithheld = {
  type: 'TransactionFailureWithheld';
  data: { orderId: string; reason: string; basis: AttemptFailureBasis; at: string };
};

/**
 * The provider reports the order succeeded, but not as it was placed (another identifier, amount or currency):
 * the order is held at once and finance gets a finding (decision 0119).
 */
export type TransactionSuccessMismatched = {
  type: 'TransactionSuccessMismatched';
  data: {
    orderId: string;
    reason: string;
    operatorRef: string;
    /** The provider's transaction as it reported it. */
    transactionId: string;
    amount: string;
    currency: string;
    at: string;
    /** When the provider dates its transaction (ISO 8601); absent: `at`. */
    upstreamAt?: string;
  };
};

export type TransactionEvent =
  | TransactionInitiated
  | TransactionSubmitted
  | TransactionSettled
  | TransactionFailed
  | TransactionDisputed
  | ProviderAnsweredAfterHold
  | ProviderAnsweredAfterOutcome
  | TransactionAttemptInDoubt
  | TransactionAttemptNotSent
  | TransactionLookedUp
  | TransactionFailureWithheld
  | TransactionSuccessMismatched;

export const TRANSACTION_EVENTS: EventTypeTable<TransactionEvent> = {
  TransactionInitiated: true,
  TransactionSubmitted: true,
  TransactionSettled: true,
  TransactionFailed: true,
  TransactionDisputed: true,
  ProviderAnsweredAfterHold: true,
  ProviderAnsweredAfterOutcome: true,
  TransactionAttemptInDoubt: true,
  TransactionAttemptNotSent: true,
  TransactionLookedUp: true,
  TransactionFailureWithheld: true,
  TransactionSuccessMismatched: true,
};
export const TRANSACTION_EVENT_TYPES: ReadonlySet<string> = typesOf(TRANSACTION_EVENTS);

const TRANSACTION_STREAM_PREFIX = 'order-';
export const transactionStreamId = (orderId: string): string => `${TRANSACTION_STREAM_PREFIX}${orderId}`;
export const isTransactionStream = (streamId: string): boolean => streamId.startsWith(TRANSACTION_STREAM_PREFIX);

/** An order's own stream. */
export const transactionStream = (orderId: string): EventStream<TransactionEvent> => ({
  id: transactionStreamId(orderId),
  holds: TRANSACTION_EVENTS,
});
