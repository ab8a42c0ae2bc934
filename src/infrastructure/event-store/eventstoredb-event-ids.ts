import { EventData, RecordedEvent as EsdbRecordedEvent, jsonEvent } from '@eventstore/db-client';
import { fromEsdbRevision, isPlainObject } from './eventstoredb-mapping';

/* EventStoreDB has no index of event ids: each id gets a claim stream `eventid-<id>` of intents, each verified by one indexed read. */

const CLAIM_STREAM_PREFIX = 'eventid-';
export const CLAIM_EVENT_TYPE = '$event-id-claimed';

export const claimStreamName = (eventId: string): string => `${CLAIM_STREAM_PREFIX}${eventId.toLowerCase()}`;

export const isClaimStream = (streamId: string): boolean => streamId.startsWith(CLAIM_STREAM_PREFIX);

export interface ClaimIntent {
  streamId: string;
  revision: number;
  claimRevision: number;
  recordedAtMs: number;
}

export const claimEventData = (streamId: string, revision: number): EventData =>
  jsonEvent({ type: CLAIM_EVENT_TYPE, data: { streamId, revision } });

export function parseClaimIntent(event: EsdbRecordedEvent): ClaimIntent | null {
  if (event.type !== CLAIM_EVENT_TYPE || !event.isJson || !isPlainObject(event.data)) return null;
  const { streamId, revision } = event.data;
  if (typeof streamId !== 'string' || typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 0)
    return null;
  return { streamId, revision, claimRevision: fromEsdbRevision(event.revision), recordedAtMs: event.created.getTime() };
}

export interface ClaimState {
  eventId: string;
  held: boolean;
  stored: { streamId: string; revision: number } | null;
  latest: ClaimIntent | null;
}

export type ClaimDecision =
  | { kind: 'deduplicated' }
  | { kind: 'duplicate'; reason: 'stored-elsewhere' | 'partly-stored' | 'claimed-elsewhere'; eventIds: string[] }
  | { kind: 'proceed'; takeOver: { eventId: string; expectedClaimRevision: number }[] };

/**
 * Stored in another stream refuses (stricter than the port, which asks uniqueness per stream only: decision 0158);
 * all stored here is a no-op; a fresh intent elsewhere may be in flight (refused).
 */
export function decideClaims(
  streamId: string,
  states: readonly ClaimState[],
  nowMs: number,
  leaseMs: number,
): ClaimDecision {
  const storedElsewhere = states.filter((state) => state.stored && state.stored.streamId !== streamId);
  if (storedElsewhere.length)
    return { kind: 'duplicate', reason: 'stored-elsewhere', eventIds: storedElsewhere.map((state) => state.eventId) };
  const storedHere = states.filter((state) => state.stored);
  if (storedHere.length === states.length) return { kind: 'deduplicated' };
  if (storedHere.length)
    return { kind: 'duplicate', reason: 'partly-stored', eventIds: storedHere.map((state) => state.eventId) };
  const claimedElsewhere = states.filter(
    (state) =>
      !state.held && state.latest && state.latest.streamId !== streamId && nowMs - state.latest.recordedAtMs < leaseMs,
  );
  if (claimedElsewhere.length)
    return { kind: 'duplicate', reason: 'claimed-elsewhere', eventIds: claimedElsewhere.map((state) => state.eventId) };
  return {
    kind: 'proceed',
    takeOver: states
      .filter((state) => !state.held)
      .map((state) => ({ eventId: state.eventId, expectedClaimRevision: state.latest?.claimRevision ?? -1 })),
  };
}

export function verificationReads(
  intents: readonly { streamId: string; revision: number }[],
  maxGap = 8,
): { streamId: string; from: number; count: number }[] {
  const byStream = new Map<string, number[]>();
  for (const intent of intents)
    byStream.set(intent.streamId, [...(byStream.get(intent.streamId) ?? []), intent.revision]);
  const reads: { streamId: string; from: number; count: number }[] = [];
  for (const [streamId, revisions] of byStream) {
    const sorted = [...new Set(revisions)].sort((a, b) => a - b);
    let from = sorted[0];
    let to = sorted[0];
    for (const revision of sorted.slice(1)) {
      if (revision - to <= maxGap) {
        to = revision;
        continue;
      }
      reads.push({ streamId, from, count: to - from + 1 });
      from = to = revision;
    }
    reads.push({ streamId, from, count: to - from + 1 });
  }
  return reads;
}

/* readByCorrelationId's index: before an append, each correlation id gets an intent in `correlationid-<id>`; failed ones are weeded out. */

const CORRELATION_STREAM_PREFIX = 'correlationid-';
const CORRELATION_EVENT_TYPE = '$correlated-events';

export const correlationStreamName = (correlationId: string): string => `${CORRELATION_STREAM_PREFIX}${correlationId}`;

export const isCorrelationStream = (streamId: string): boolean => streamId.startsWith(CORRELATION_STREAM_PREFIX);

interface CorrelationIntent {
  streamId: string;
  events: { revision: number; eventId: string }[];
}

export function correlationIntents(
  streamId: string,
  events: readonly { eventId: string; correlationId: string }[],
  firstRevision: number,
): Map<string, CorrelationIntent> {
  const intents = new Map<string, CorrelationIntent>();
  events.forEach(({ eventId, correlationId }, index) => {
    const intent = intents.get(correlationId) ?? { streamId, events: [] };
    intent.events.push({ revision: firstRevision + index, eventId: eventId.toLowerCase() });
    intents.set(correlationId, intent);
  });
  return intents;
}

export const correlationEventData = (intent: CorrelationIntent): EventData =>
  jsonEvent({ type: CORRELATION_EVENT_TYPE, data: { streamId: intent.streamId, events: intent.events } });

export function parseCorrelationIntent(event: EsdbRecordedEvent): CorrelationIntent | null {
  if (event.type !== CORRELATION_EVENT_TYPE || !event.isJson || !isPlainObject(event.data)) return null;
  const { streamId, events } = event.data;
  if (typeof streamId !== 'string' || !Array.isArray(events)) return null;
  const entries: { revision: number; eventId: string }[] = [];
  for (const entry of events) {
    if (
      !isPlainObject(entry) ||
      typeof entry.eventId !== 'string' ||
      typeof entry.revision !== 'number' ||
      !Number.isSafeInteger(entry.revision)
    )
      return null;
    entries.push({ revision: entry.revision, eventId: entry.eventId });
  }
  return { streamId, events: entries };
}
