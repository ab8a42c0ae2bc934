import { FindingKind, OwnOrder, UpstreamTransaction } from './reconciliation';

/** A difference between a provider's report and our orders, found by a reconciliation of one UTC day. */
export type ReconciliationMismatchFound = {
  type: 'ReconciliationMismatchFound';
  data: {
    provider: string;
    date: string;
    kind: Exclude<FindingKind, 'matched'>;
    orderId: string;
    upstream: UpstreamTransaction | null;
    ours: OwnOrder | null;
    detail: string;
    foundAt: string;
  };
};

export const RECONCILIATION_EVENT_TYPES: ReadonlySet<string> = new Set(['ReconciliationMismatchFound']);

/** One stream per provider and day: running the day again records only what it had not found before. */
export const reconciliationStreamId = (provider: string, date: string): string => `reconciliation-${provider}-${date}`;
