import {
  ANY,
  AppendExpectedRevision,
  AppendResult as EsdbAppendResult,
  BACKWARDS,
  END,
  EventData,
  FORWARDS,
  START,
} from '@eventstore/db-client';
import {
  AppendResult,
  DuplicateEventIdError,
  ExpectedRevision,
  DomainEvent,
  NewEvent,
  WrongExpectedRevisionError,
} from '../../application/ports/event-store.port';
import { EventStoreDbClient, EventStoreDbOptions } from './eventstoredb-client';
import {
  ClaimDecision,
  ClaimIntent,
  ClaimState,
  claimEventData,
  claimStreamName,
  correlationEventData,
  correlationIntents,
  correlationStreamName,
  decideClaims,
  isClaimStream,
  isCorrelationStream,
  parseClaimIntent,
  verificationReads,
} from './eventstoredb-event-ids';
import { appendSizeBytes } from './eventstoredb-append-size';
import {
  EventStoreDbAppendOutcomeUnknownError,
  EventStoreDbAppendTooLargeError,
  explainStreamError,
  isOutcomeUnknown,
  isWrongExpectedVersion,
  translateAppendError,
} from './eventstoredb-errors';
import {
  EventStoreDbMappingError,
  MIN_SERVER_VERSION,
  fromEsdbRevision,
  logPosition,
  toEsdbExpectedRevision,
} from './eventstoredb-mapping';
import { EventStoreDbReads, settleAll } from './eventstoredb-reads';

const MAX_CLAIM_HISTORY = 1_000;

type Attempt = { kind: 'done'; result: AppendResult } | { kind: 'retry'; error: unknown };

/** Appends at a concrete expected revision, claiming every event id first (eventstoredb-event-ids.ts) and indexing correlation ids. */
export class EventStoreDbAppends {
  constructor(
    private readonly client: EventStoreDbClient,
    private readonly reads: EventStoreDbReads,
    private readonly options: EventStoreDbOptions,
    private readonly onStored: () => void,
  ) {}

  async append(
    streamId: string,
    events: readonly NewEvent<DomainEvent>[],
    data: EventData[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    assertServiceStream(streamId);
    assertAppendFits(streamId, data, this.options.maxAppendSizeBytes);
    toEsdbExpectedRevision(expected);
    const ids = events.map((event) => event.eventId.toLowerCase());
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    if (repeated.length) throw new DuplicateEventIdError([...new Set(repeated)]);
    const known = new Map<string, number>();
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.tryAppend(streamId, events, ids, data, expected, known);
      if (outcome.kind === 'done') return outcome.result;
      if (attempt >= this.options.maxAppendAttempts) throw outcome.error;
      await sleep(Math.random() * Math.min(200, 5 * 2 ** attempt));
    }
  }

  private async tryAppend(
    streamId: string,
    events: readonly NewEvent<DomainEvent>[],
    ids: string[],
    data: EventData[],
    expected: ExpectedRevision,
    known: Map<string, number>,
  ): Promise<Attempt> {
    let after: number;
    if (expected === 'any' || expected === 'stream_exists') {
      const current = await this.currentRevision(streamId);
      if (current === null && expected === 'stream_exists') {
        const inspected = await this.inspectClaims(streamId, ids);
        if (inspected.kind === 'duplicate') throw new DuplicateEventIdError(inspected.eventIds);
        throw new WrongExpectedRevisionError(streamId, expected, 'no_stream');
      }
      after = current ?? -1;
    } else {
      after = expected === 'no_stream' ? -1 : expected;
    }
    const first = after + 1;

    // 2. Claim every id for (stream, revision) and find out whether any is stored already; meanwhile
    //    record the batch in its correlation ids' index streams (an intent that never comes true is ignored).
    const [claiming, indexing] = await Promise.allSettled([
      this.claimIds(streamId, ids, first, known),
      this.writeCorrelationIntents(streamId, events, first),
    ]);
    if (claiming.status === 'rejected') throw claiming.reason;
    if (indexing.status === 'rejected') throw indexing.reason;
    const claimed = claiming.value;
    if (claimed === 'contended')
      return { kind: 'retry', error: new Error(`stream ${streamId}: event-id claims kept changing under this append`) };
    if (claimed.kind === 'deduplicated') return { kind: 'done', result: await this.deduplicated(streamId) };
    if (claimed.kind === 'duplicate') throw new DuplicateEventIdError(claimed.eventIds);

    try {
      await this.appendToStream(streamId, data, toEsdbExpectedRevision(after));
    } catch (error) {
      // A write that timed out may still commit, at revision `first` only: the caller must read before deciding.
      if (isOutcomeUnknown(error)) throw new EventStoreDbAppendOutcomeUnknownError(streamId, { cause: error });
      if (!isWrongExpectedVersion(error)) throw error;
      const translated = translateAppendError(error, streamId, expected);
      if (expected === 'any' || expected === 'stream_exists') return { kind: 'retry', error: translated };
      // A concurrent twin of this append (same ids) may have won: then this one is a repeat.
      const inspected = await this.inspectClaims(streamId, ids);
      if (inspected.kind === 'deduplicated') return { kind: 'done', result: await this.deduplicated(streamId) };
      if (inspected.kind === 'duplicate') throw new DuplicateEventIdError(inspected.eventIds);
      throw translated;
    }

    const stored = await this.reads.streamRecords(
      streamId,
      { fromRevision: BigInt(first), direction: FORWARDS, maxCount: ids.length },
      true,
    );
    const storedIds = stored.map((event) => event.id.toLowerCase());
    if (storedIds.length !== ids.length || storedIds.some((id, index) => id !== ids[index])) {
      throw new Error(
        `stream ${streamId}: the append was acknowledged but revisions ${first}..${first + ids.length - 1} hold other events`,
      );
    }
    const last = stored[stored.length - 1];
    const position = logPosition(last.position);
    this.onStored();
    if (!position) {
      throw new EventStoreDbMappingError(
        `stream ${streamId}: the append was stored at revisions ${first}..${first + ids.length - 1}, but the server sent no log position for it (EventStoreDB ${MIN_SERVER_VERSION} or later is required)`,
      );
    }
    return { kind: 'done', result: { nextRevision: fromEsdbRevision(last.revision), position, deduplicated: false } };
  }

  private async appendToStream(
    streamName: string,
    data: EventData[],
    expectedRevision: AppendExpectedRevision,
  ): Promise<EsdbAppendResult> {
    try {
      return await this.client.appendToStream(streamName, data, {
        expectedRevision,
        deadline: this.options.appendDeadlineMs,
      });
    } catch (error) {
      throw explainStreamError(error, streamName, 'append');
    }
  }

  private async writeCorrelationIntents(
    streamId: string,
    events: readonly NewEvent<DomainEvent>[],
    first: number,
  ): Promise<void> {
    const intents = correlationIntents(
      streamId,
      events.map((event) => ({ eventId: event.eventId, correlationId: event.metadata.correlationId })),
      first,
    );
    await settleAll(
      [...intents].map(async ([correlationId, intent]) => {
        await this.appendToStream(correlationStreamName(correlationId), [correlationEventData(intent)], ANY);
      }),
    );
  }

  private async deduplicated(streamId: string): Promise<AppendResult> {
    return { nextRevision: (await this.currentRevision(streamId)) ?? -1, position: null, deduplicated: true };
  }

  /** Writes our intent into each id's claim stream and verifies the older intents; another writer's claims are taken over optimistically. */
  private async claimIds(
    streamId: string,
    ids: string[],
    first: number,
    known: Map<string, number>,
  ): Promise<ClaimDecision | 'contended'> {
    const held = new Set<string>();
    const fresh = new Set<string>();
    await settleAll(
      ids.map(async (id, index) => {
        const expectedClaim = known.get(id) ?? -1;
        try {
          known.set(id, await this.writeIntent(id, streamId, first + index, expectedClaim));
          held.add(id);
          if (expectedClaim < 0) fresh.add(id);
        } catch (error) {
          if (!isWrongExpectedVersion(error)) throw error;
          known.delete(id);
        }
      }),
    );
    if (fresh.size === ids.length) return { kind: 'proceed', takeOver: [] };
    const decision = decideClaims(
      streamId,
      await this.claimStates(streamId, ids, held, fresh),
      Date.now(),
      this.options.claimLeaseMs,
    );
    if (decision.kind !== 'proceed' || decision.takeOver.length === 0) return decision;
    let contended = false;
    await settleAll(
      decision.takeOver.map(async ({ eventId, expectedClaimRevision }) => {
        try {
          known.set(
            eventId,
            await this.writeIntent(eventId, streamId, first + ids.indexOf(eventId), expectedClaimRevision),
          );
        } catch (error) {
          if (!isWrongExpectedVersion(error)) throw error;
          contended = true;
        }
      }),
    );
    return contended ? 'contended' : decision;
  }

  private async inspectClaims(streamId: string, ids: string[]): Promise<ClaimDecision> {
    return decideClaims(
      streamId,
      await this.claimStates(streamId, ids, new Set(), new Set()),
      Date.now(),
      this.options.claimLeaseMs,
    );
  }

  private async writeIntent(
    eventId: string,
    streamId: string,
    revision: number,
    expectedClaimRevision: number,
  ): Promise<number> {
    const result = await this.appendToStream(
      claimStreamName(eventId),
      [claimEventData(streamId, revision)],
      toEsdbExpectedRevision(expectedClaimRevision),
    );
    return fromEsdbRevision(result.nextExpectedRevision);
  }

  private async claimStates(
    streamId: string,
    ids: string[],
    held: ReadonlySet<string>,
    fresh: ReadonlySet<string>,
  ): Promise<ClaimState[]> {
    const histories = new Map<string, ClaimIntent[]>();
    await settleAll(
      ids
        .filter((id) => !fresh.has(id))
        .map(async (id) => {
          const records = await this.reads.streamRecords(
            claimStreamName(id),
            { fromRevision: START, direction: FORWARDS, maxCount: MAX_CLAIM_HISTORY },
            true,
          );
          histories.set(
            id,
            records.flatMap((record) => parseClaimIntent(record) ?? []),
          );
        }),
    );
    const stored = await this.storedIds([...histories.values()].flat());
    return ids.map((id) => {
      const history = histories.get(id) ?? [];
      const verified = history.find((intent) => stored.has(storedKey(intent.streamId, intent.revision, id)));
      return {
        eventId: id,
        held: held.has(id),
        stored: verified ? { streamId: verified.streamId, revision: verified.revision } : null,
        latest: fresh.has(id) ? null : (history[history.length - 1] ?? null),
      };
    });
  }

  private async storedIds(intents: readonly ClaimIntent[]): Promise<Set<string>> {
    const found = new Set<string>();
    await settleAll(
      verificationReads(intents).map(async ({ streamId, from, count }) => {
        const records = await this.reads.streamRecords(
          streamId,
          { fromRevision: BigInt(from), direction: FORWARDS, maxCount: count },
          true,
        );
        for (const record of records)
          found.add(storedKey(record.streamId, fromEsdbRevision(record.revision), record.id.toLowerCase()));
      }),
    );
    return found;
  }

  private async currentRevision(streamId: string): Promise<number | null> {
    const [last] = await this.reads.streamRecords(
      streamId,
      { fromRevision: END, direction: BACKWARDS, maxCount: 1 },
      true,
    );
    return last ? fromEsdbRevision(last.revision) : null;
  }
}

export function assertServiceStream(streamId: string): void {
  if (!streamId || streamId.startsWith('$') || isClaimStream(streamId) || isCorrelationStream(streamId)) {
    throw new Error(
      `stream ${streamId}: names starting with $, ${claimStreamName('')} or ${correlationStreamName('')} are reserved`,
    );
  }
}

function assertAppendFits(streamId: string, data: readonly EventData[], maxAppendSizeBytes: number): void {
  const size = appendSizeBytes(data);
  if (size <= maxAppendSizeBytes) return;
  throw new EventStoreDbAppendTooLargeError(
    streamId,
    `a batch of ${data.length} events is ${size} bytes, more than EventStoreDB's MaxAppendSize of ${maxAppendSizeBytes} bytes`,
  );
}

const storedKey = (streamId: string, revision: number, eventId: string): string =>
  `${streamId}\u0000${revision}\u0000${eventId}`;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
