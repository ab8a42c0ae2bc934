import { FindingKind, OwnOrder, UpstreamTransaction } from './reconciliation';
import { EventTypeTable, typesOf } from '../shared/event-types';

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

export type ReconciliationEvent = ReconciliationMismatchFound;

export const RECONCILIATION_EVENTS: EventTypeTable<ReconciliationEvent> = { ReconciliationMismatchFound: true };
export const RECONCILIATION_EVENT_TYPES: ReadonlySet<string> = typesOf(RECONCILIATION_EVENTS);

/** One stream per provider and day: running the day again records only what it had not found before. */
export const reconciliationStreamId = (provider: string, date: string): string => `reconciliation-${provider}-${date}`;
