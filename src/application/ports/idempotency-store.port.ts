import { Environment } from '../../domain/shared/environment';

/** How long a key stays bound to its first request: 24 hours, as the interface fixes it. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** An Idempotency-Key: 8 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{8,255}$/;

export interface IdempotencyScope {
  partnerId: string;
  environment: Environment;
  key: string;
}

export interface StoredResponse {
  statusCode: number;
  /** The response body exactly as first sent. */
  body: string;
}

/**
 * What a repeat of a key's request is answered: a stored response, or, for a key bound in the commit of its order's
 * debit, the answer made again from that debit (the answer is a function of the debit event, so the bytes are the
 * first answer's; decision 0162).
 */
export type KeyAnswer = { kind: 'stored'; response: StoredResponse } | { kind: 'debit'; orderId: string };

/**
 * `lease` names this request's hold on the key (when its lease ends); a retry that takes the
 * key over holds it with another, so a request can tell whether the key is still its own.
 */
export type Reservation =
  | { outcome: 'reserved'; orderId: string; lease: string }
  /** The key was reserved earlier by a request that never completed (a crash); this request takes it over. */
  | { outcome: 'resumed'; orderId: string; lease: string }
  | { outcome: 'replay'; answer: KeyAnswer }
  | { outcome: 'conflict' }
  | { outcome: 'in_flight' };

export interface IdempotencyStore {
  /** Reserves the key for this request, or says what an earlier request with the same key did. */
  reserve(scope: IdempotencyScope, requestHash: string, candidateOrderId: string, now: Date): Promise<Reservation>;
  /** What a key holds now (null when unused or expired): its request hash and, once answered, the answer. */
  find(scope: IdempotencyScope, now: Date): Promise<{ requestHash: string; answer: KeyAnswer | null } | null>;
  /** Stores the answer, only while the key is still bound to this order. */
  complete(scope: IdempotencyScope, orderId: string, response: StoredResponse): Promise<void>;
  /**
   * Frees a key whose request moved no money, only while bound to this order, unanswered and under this lease: a
   * request that outlived its lease must not free the key of the retry that took it over.
   */
  release(scope: IdempotencyScope, orderId: string, lease: string): Promise<void>;
  purgeExpired(now: Date): Promise<number>;
  /** What a key is bound to now, for audits; null once purged or released. */
  lookup(scope: IdempotencyScope): Promise<{ orderId: string; statusCode: number | null } | null>;
}

export const IDEMPOTENCY_STORE = Symbol('IdempotencyStore');
