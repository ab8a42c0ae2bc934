import { EventData, RecordedEvent as EsdbRecordedEvent, jsonEvent } from '@eventstore/db-client';
import { fromEsdbRevision, isPlainObject } from './eventstoredb-mapping';

/*
 * EventStoreDB keeps no index of event ids across streams, and its own idempotency is partial (an append
 * whose expected revision equals the current one is written again, duplicates and all). The port wants more:
 * an id stored in the same stream makes a repeat a no-op, an id stored in another stream is refused.
 *
 * So every event id gets a tiny "claim" stream, `eventid-<id>`. Each event in it is an intent: "this id is
 * going to revision R of stream S". An intent is *verified* when stream S really holds this id at revision R,
 * which one indexed read proves. Every append of ours uses a concrete expected revision, so an append in
 * flight can only ever land at the revision of its own intent: checking every intent of a claim stream
 * therefore finds the id wherever it can be. Claim events have a `$`-prefixed type, so readAll and the
 * system-event filter of subscriptions skip them like any other system event.
 */

export const CLAIM_STREAM_PREFIX = 'eventid-';
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
 * The rules, in the order the SQL store applies them:
 * 1. an id stored in another stream refuses the batch;
 * 2. all ids stored in this stream make it a no-op, some of them refuse it (a partial batch);
 * 3. an id whose newest intent targets another stream and is younger than the lease may be in flight there:
 *    refused (a stale one is an abandoned attempt and is taken over);
 * 4. otherwise the claims that are not ours yet are taken over, optimistically on the claim stream's revision.
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
 * readByCorrelationId needs an index EventStoreDB lacks ($by_correlation_id is an optional, asynchronous
 * system projection). Before an append, each correlation id of the batch gets an intent in its own stream,
 * `correlationid-<id>`: "these event ids are going to these revisions of stream S". Since every stored event
 * had its intent written first, the index is complete; intents of appends that failed are weeded out by the
 * same verification as the id claims.
 */

export const CORRELATION_STREAM_PREFIX = 'correlationid-';
export const CORRELATION_EVENT_TYPE = '$correlated-events';

export const correlationStreamName = (correlationId: string): string => `${CORRELATION_STREAM_PREFIX}${correlationId}`;

export const isCorrelationStream = (streamId: string): boolean => streamId.startsWith(CORRELATION_STREAM_PREFIX);

export interface CorrelationIntent {
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
