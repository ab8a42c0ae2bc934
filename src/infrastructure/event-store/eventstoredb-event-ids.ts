import { EventData, RecordedEvent as EsdbRecordedEvent, jsonEvent } from '@eventstore/db-client';
import { fromEsdbRevision, isPlainObject } from './eventstoredb-mapping';

/*
 * EventStoreDB has no cross-stream index of event ids, so each id gets a claim stream `eventid-<id>` of intents ("going
 * to revision R of stream S"), verified by one indexed read. Appends use concrete expected revisions, so checking every
 * intent finds the id wherever it can be; `$`-typed claims are skipped like system events.
 */

const CLAIM_STREAM_PREFIX = 'eventid-';
export const CLAIM_EVENT_TYPE = '$event-id-claimed';

export const claimStreamName = (eventId: string): string => `${CLAIM_STREAM_PREFIX}${eventId.toLowerCase()}`;

export const isClaimStream = (streamId: string): boolean => streamId.startsWith(CLAIM_STREAM_PREFIX);

/** One intent recorded in a claim stream. */
export interface ClaimIntent {
  streamId: string;
  revision: number;
  /** Revision of this intent within the claim stream. */
  claimRevision: number;
  /** When the server recorded it, ms since the epoch. */
  recordedAtMs: number;
}

export const claimEventData = (streamId: string, revision: number): EventData =>
  jsonEvent({ type: CLAIM_EVENT_TYPE, data: { streamId, revision } });

/** Null for anything that is not one of our intents. */
export function parseClaimIntent(event: EsdbRecordedEvent): ClaimIntent | null {
  if (event.type !== CLAIM_EVENT_TYPE || !event.isJson || !isPlainObject(event.data)) return null;
  const { streamId, revision } = event.data;
  if (typeof streamId !== 'string' || typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 0)
    return null;
  return { streamId, revision, claimRevision: fromEsdbRevision(event.revision), recordedAtMs: event.created.getTime() };
}

/** What we know of one event id of the batch once its claim stream has been read (or freshly created). */
export interface ClaimState {
  eventId: string;
  /** Our intent is the newest in the claim stream (we just wrote it). */
  held: boolean;
  /** The intent that was verified, if any: the id is stored there. */
  stored: { streamId: string; revision: number } | null;
  /** The newest intent in the claim stream; null when the stream is missing. */
  latest: ClaimIntent | null;
}

export type ClaimDecision =
  /** Every id is stored in the target stream already: a repeat, nothing to write. */
  | { kind: 'deduplicated' }
  | { kind: 'duplicate'; reason: 'stored-elsewhere' | 'partly-stored' | 'claimed-elsewhere'; eventIds: string[] }
  /** None is stored: append, after taking over the claims listed (their newest intent is not ours). */
  | { kind: 'proceed'; takeOver: { eventId: string; expectedClaimRevision: number }[] };

/**
 * In the SQL store's order: an id stored in another stream refuses the batch; all ids stored here make it a no-op, some
 * refuse it; an id whose fresh intent targets another stream may be in flight there (refused, a stale one is taken
 * over); else unowned claims are taken over optimistically.
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

/** Revisions to read to verify intents: consecutive (or nearly) revisions of one stream are read together. */
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

/*
 * readByCorrelationId needs an index EventStoreDB lacks: before an append, each correlation id gets an intent in
 * `correlationid-<id>` ("these event ids go to these revisions of S"). Every stored event had its intent first, so the
 * index is complete; failed appends' intents are weeded out as the id claims are.
 */

const CORRELATION_STREAM_PREFIX = 'correlationid-';
const CORRELATION_EVENT_TYPE = '$correlated-events';

export const correlationStreamName = (correlationId: string): string => `${CORRELATION_STREAM_PREFIX}${correlationId}`;

export const isCorrelationStream = (streamId: string): boolean => streamId.startsWith(CORRELATION_STREAM_PREFIX);

interface CorrelationIntent {
  streamId: string;
  events: { revision: number; eventId: string }[];
}

/** The intents an append writes: one per correlation id of the batch, listing that id's events. */
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
