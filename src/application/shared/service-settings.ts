import { TimeOfDay } from '../../domain/reconciliation/reconciliation-schedule';

/** Business timings the application needs; read from the environment at start. */
export interface ServiceSettings {
  /** Age after which an order with no final outcome is held for manual resolution. */
  stuckOrderAfterMs: number;
  /** How long a fetched bill can be paid against. */
  billValidityMs: number;
  /** How long a request waits for an identical in-flight request before answering 409. */
  idempotencyWaitMs: number;
  /** A wallet's snapshot is taken once it has moved this many events past the last one. */
  walletSnapshotEvery: number;
  /** Open event streams one API key may hold at once, across processes. */
  eventStreamsPerKey: number;
  /** Open event streams one partner may hold per environment, all its keys together, across processes. */
  eventStreamsPerPartner: number;
  /** When each provider's day is reconciled, in the provider's report zone (RECONCILIATION_AT); null: never by itself. */
  reconciliationAt: TimeOfDay | null;
}

export const SERVICE_SETTINGS = Symbol('ServiceSettings');
