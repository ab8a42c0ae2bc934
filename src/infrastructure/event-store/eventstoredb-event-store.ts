import { EventEmitter } from 'node:events';
import {
  ANY,
  AllStreamResolvedEvent,
  AppendExpectedRevision,
  AppendResult as EsdbAppendResult,
  AppendToStreamOptions,
  BACKWARDS,
  Direction,
  END,
  EventData,
  EventStoreDBClient,
  FORWARDS,
  RecordedEvent as EsdbRecordedEvent,
  ReadAllOptions as EsdbReadAllOptions,
  ReadRevision,
  ReadStreamOptions,
  ResolvedEvent,
  START,
  StreamingRead,
} from '@eventstore/db-client';
import {
  AppendOptions,
  AppendResult,
  DuplicateEventIdError,
  EventStore,
  ExpectedRevision,
  GlobalPosition,
  HistoricalEvent,
  NewEvent,
  ReadAllOptions,
  RecordedEvent,
  StreamAppend,
  StreamAppendOutcome,
  WrongExpectedRevisionError,
  comparePositions,
} from '../../application/ports/event-store.port';
import { appendEach } from './append-each';
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
  parseCorrelationIntent,
  verificationReads,
} from './eventstoredb-event-ids';
import { HeadMemo, PageReader, SkipCache, countForward, nextHeadMemo, scanBackward, scanForward } from './eventstoredb-log-scan';
import {
  DEFAULT_MAX_APPEND_SIZE_BYTES,
  EventStoreDbAccessDeniedError,
  EventStoreDbAppendOutcomeUnknownError,
  EventStoreDbAppendTooLargeError,
  EventStoreDbMappingError,
  MIN_SERVER_VERSION,
  appendSizeBytes,
  explainAllStreamError,
  explainStreamError,
  fromEsdbRevision,
  isOutcomeUnknown,
  isServiceEvent,
  isStreamNotFound,
  isWrongExpectedVersion,
  logPosition,
  toEsdbExpectedRevision,
  toEsdbPosition,
  toEventData,
  toImportedEventData,
  toRecordedEvent,
  translateAppendError,
  withClientSettings,
} from './eventstoredb-mapping';
import { BackoffPolicy, DEFAULT_BACKOFF, EventStoreDbSubscription, SubscribingClient, subscribeToAllEvents } from './eventstoredb-subscription';

/** The part of @eventstore/db-client's EventStoreDBClient the adapter uses (the real client satisfies it as is). */
export interface EventStoreDbClient extends SubscribingClient {
  appendToStream(streamName: string, events: EventData[], options: AppendToStreamOptions): Promise<EsdbAppendResult>;
  readStream(streamName: string, options: ReadStreamOptions): StreamingRead<ResolvedEvent>;
  readAll(options: EsdbReadAllOptions): StreamingRead<AllStreamResolvedEvent>;
  dispose(): Promise<void>;
}

export interface EventStoreDbOptions {
  /**
   * Per-append deadline, ms. The client sends it to the server with the batch append, and the server caps it at its
   * WriteTimeoutMs (2,000 by default): a longer one has no effect unless the server's is raised too. When it
   * passes, the append's outcome is unknown (EventStoreDbAppendOutcomeUnknownError).
   */
  appendDeadlineMs: number;
  /** The server's MaxAppendSize, bytes: larger batches are refused before anything is written. */
  maxAppendSizeBytes: number;
  /**
   * A read that receives nothing for this long is cancelled, ms. Client 6.2.1 ignores the per-call `deadline`
   * of streaming reads (it sets an infinite one), so the adapter enforces this itself.
   */
  readIdleTimeoutMs: number;
  /** An unverified event-id claim on another stream younger than this may be an append in flight, ms. */
  claimLeaseMs: number;
  /** Attempts of one append when `any`/`stream_exists` lose a race or two writers contend for a claim. */
  maxAppendAttempts: number;
  /** Follow $all with a native subscription while onAppended has listeners, so appends by other processes wake them too. */
  watchRemoteAppends: boolean;
  subscriptionBackoff: BackoffPolicy;
  /** Told of subscription drops and other recoverable trouble. */
  onWarning?: (message: string, error: unknown) => void;
}

export const DEFAULT_EVENTSTOREDB_OPTIONS: EventStoreDbOptions = {
  appendDeadlineMs: 2_000,
  maxAppendSizeBytes: DEFAULT_MAX_APPEND_SIZE_BYTES,
  readIdleTimeoutMs: 30_000,
  claimLeaseMs: 5 * 60_000,
  maxAppendAttempts: 20,
  watchRemoteAppends: true,
  subscriptionBackoff: DEFAULT_BACKOFF,
};

export class EventStoreDbReadTimeoutError extends Error {
  constructor(what: string, idleMs: number) {
    super(`EventStoreDB ${what}: nothing received for ${idleMs} ms`);
    this.name = 'EventStoreDbReadTimeoutError';
  }
}

const MIN_PAGE = 64;
const MAX_PAGE = 1_000;
const HEAD_PAGE = 64;
const MAX_CLAIM_HISTORY = 1_000;

type Attempt = { kind: 'done'; result: AppendResult } | { kind: 'retry'; error: unknown };

/**
 * The event store on EventStoreDB 22.6+ (events only; read models, jobs and idempotency stay in PostgreSQL).
 *
 * - Revisions: both count a stream's first event as 0; "no stream" is NO_STREAM (or -1 in our numbers).
 * - Appends always use a concrete expected revision: `any` and `stream_exists` read the stream's revision first
 *   and retry on a lost race, so an append in flight can land in one place only (see eventstoredb-event-ids.ts).
 * - Event ids: a claim stream per id gives the port's semantics: a repeat in the same stream returns
 *   {deduplicated: true}, an id in another stream throws DuplicateEventIdError, a partial batch is refused.
 * - Positions are EventStoreDB's {commit, prepare}; an append reads its events back for theirs, because the
 *   position an append returns is its commit's, not necessarily the last event's in $all.
 * - readAll and headPosition skip system events ($-prefixed types, which include the claims) and events not
 *   written through this adapter. countCommittedNotYetReadable is 0: $all is totally ordered at commit.
 * - A batch over the server's MaxAppendSize is refused before anything is written; an append whose write timed out
 *   (or lost its connection) fails with EventStoreDbAppendOutcomeUnknownError; a hard-deleted stream is an error,
 *   never an empty stream; access denied to $all says which right the service's user lacks.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly appended = new EventEmitter();
  private readonly options: EventStoreDbOptions;
  private readonly skips = new SkipCache();
  private headMemo: HeadMemo | null = null;
  private watcher: EventStoreDbSubscription | null = null;
  private watcherStopping: Promise<void> = Promise.resolve();
  private notifyScheduled = false;
  private closed = false;

  /**
   * Connects with our keep-alive and deadline settings added to the connection string where it sets none
   * (esdb://host:2113?tls=false...), and checks the server answers before returning.
   */
  static connect(connectionString: string, options: Partial<EventStoreDbOptions> = {}): Promise<EventStoreDbEventStore> {
    return EventStoreDbEventStore.openChecked(EventStoreDBClient.connectionString(withClientSettings(connectionString)), options);
  }

  /** The store over `client`, once the server has answered a read of $all (which also proves the user may read it). */
  static async openChecked(client: EventStoreDbClient, options: Partial<EventStoreDbOptions> = {}): Promise<EventStoreDbEventStore> {
    const store = new EventStoreDbEventStore(client, options);
    try {
      await store.headPosition();
    } catch (error) {
      await store.close().catch(() => undefined);
      if (error instanceof EventStoreDbAccessDeniedError) throw error;
      throw new Error(`EventStoreDB did not answer: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    return store;
  }

  constructor(
    private readonly client: EventStoreDbClient,
    options: Partial<EventStoreDbOptions> = {},
  ) {
    this.options = { ...DEFAULT_EVENTSTOREDB_OPTIONS, ...options };
    this.appended.setMaxListeners(0);
  }

  /** Idempotency-Keys live in PostgreSQL, which cannot share a commit with EventStoreDB: they are reserved around the append instead. */
  readonly bindsIdempotencyKeys = false;

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision, options: AppendOptions = {}): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    if (options.idempotencyKeys?.length) throw new Error('EventStoreDB cannot bind Idempotency-Keys in the commit of its events; nothing was written');
    return this.appendData(streamId, events, events.map((event) => toEventData(event)), expected);
  }

  /** EventStoreDB commits one stream per append: the streams are appended side by side, each on its own. */
  appendMany(appends: readonly StreamAppend[]): Promise<StreamAppendOutcome[]> {
    return appendEach(this, appends);
  }

  /**
   * Each run of consecutive events of one stream is one append at the revision before its first event, through the
   * same claims and correlation index as any append (so ids stay unique and readByCorrelationId finds them). The
   * original recorded time goes into the metadata (RECORDED_AT_KEY): EventStoreDB stamps `created` itself.
   * Runs are appended one after the other, so $all keeps the order given; a run is not atomic with the next. A
   * revision out of turn fails its append on the expected revision.
   */
  async importEvents(events: readonly HistoricalEvent[]): Promise<void> {
    for (const run of streamRuns(events, IMPORT_RUN_MAX)) {
      const first = run[0].revision;
      const data = run.map(toImportedEventData);
      await this.appendData(run[0].streamId, run, data, first === 0 ? 'no_stream' : first - 1);
    }
  }

  private async appendData(streamId: string, events: NewEvent[], data: EventData[], expected: ExpectedRevision): Promise<AppendResult> {
    assertServiceStream(streamId);
    assertAppendFits(streamId, data, this.options.maxAppendSizeBytes);
    toEsdbExpectedRevision(expected);
    const ids = events.map((event) => event.eventId.toLowerCase());
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    if (repeated.length) throw new DuplicateEventIdError([...new Set(repeated)]);
    /** Revision of each claim stream as we last wrote it, so a retry can write there again. */
    const known = new Map<string, number>();
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.tryAppend(streamId, events, ids, data, expected, known);
      if (outcome.kind === 'done') return outcome.result;
      if (attempt >= this.options.maxAppendAttempts) throw outcome.error;
      await sleep(Math.random() * Math.min(200, 5 * 2 ** attempt));
    }
  }

  async readStream(streamId: string, fromRevision = 0, maxCount?: number): Promise<RecordedEvent[]> {
    if (!Number.isSafeInteger(fromRevision) || fromRevision < 0) throw new RangeError(`fromRevision ${fromRevision} is not a revision`);
    if (maxCount !== undefined && (!Number.isSafeInteger(maxCount) || maxCount < 0)) throw new RangeError('maxCount must be a non-negative integer');
    assertServiceStream(streamId);
    if (maxCount === 0) return [];
    const events = await this.readStreamRecords(streamId, { fromRevision: BigInt(fromRevision), direction: FORWARDS, maxCount });
    return events.map(toRecordedEvent);
  }

  /** Read on the leader, so an append that has returned is seen even when followers lag. */
  async readLastEvent(streamId: string): Promise<RecordedEvent | null> {
    assertServiceStream(streamId);
    const [last] = await this.readStreamRecords(streamId, { fromRevision: END, direction: BACKWARDS, maxCount: 1 }, true);
    return last ? toRecordedEvent(last) : null;
  }

  async readAll(after: GlobalPosition | null, options: ReadAllOptions): Promise<RecordedEvent[]> {
    if (!Number.isSafeInteger(options.maxCount) || options.maxCount < 1) throw new RangeError('maxCount must be a positive integer');
    const types = options.eventTypes;
    const filterKey = types ? [...types].sort().join('\u0001') : '*';
    const scan = await scanForward(this.allPages(FORWARDS), {
      after: this.skips.resume(after, filterKey),
      maxCount: options.maxCount,
      pageSize: Math.min(MAX_PAGE, Math.max(MIN_PAGE, options.maxCount + 1)),
      positionOf: positionOfResolved,
      select: (resolved) =>
        resolved.event && isServiceEvent(resolved.event) && (!types || types.has(resolved.event.type)) ? toRecordedEvent(resolved.event) : null,
    });
    if (scan.reachedEnd && scan.scannedTo) {
      const last = scan.results[scan.results.length - 1];
      this.skips.remember(last ? last.position : after, scan.scannedTo, filterKey);
    }
    return scan.results;
  }

  async headPosition(): Promise<GlobalPosition | null> {
    const previous = this.headMemo;
    const scan = await scanBackward(this.allPages(BACKWARDS), {
      pageSize: HEAD_PAGE,
      stopAt: previous?.top ?? null,
      positionOf: positionOfResolved,
      select: (resolved) => (resolved.event && isServiceEvent(resolved.event) ? logPosition(resolved.event.position) : null),
    });
    const { head, memo } = nextHeadMemo(previous, scan);
    this.headMemo = memo;
    return head;
  }

  /** Pages through $all in (after, upTo]: the cost grows with the range (the client cannot count on the server). */
  async countEvents(after: GlobalPosition | null, upTo?: GlobalPosition | null): Promise<number> {
    if (after && upTo && comparePositions(upTo, after) <= 0) return 0;
    return countForward(
      this.allPages(FORWARDS),
      { after, until: upTo ?? null, pageSize: MAX_PAGE, positionOf: positionOfResolved },
      (resolved) => resolved.event !== undefined && isServiceEvent(resolved.event),
    );
  }

  /** Reads the correlation id's index stream and keeps the intents whose events really are where they said. */
  async readByCorrelationId(correlationId: string): Promise<RecordedEvent[]> {
    const records = await this.readStreamRecords(correlationStreamName(correlationId), { fromRevision: START, direction: FORWARDS });
    // Several intents may name one slot (a failed append's and the one that landed there): keep every id.
    const wanted = new Map<string, Set<string>>();
    for (const intent of records.flatMap((record) => parseCorrelationIntent(record) ?? [])) {
      for (const { revision, eventId } of intent.events) {
        const key = revisionKey(intent.streamId, revision);
        wanted.set(key, (wanted.get(key) ?? new Set()).add(eventId.toLowerCase()));
      }
    }
    const found = new Map<string, RecordedEvent>();
    const slots = [...wanted.keys()].map((key) => {
      const [streamId, revision] = key.split('\u0000');
      return { streamId, revision: Number(revision) };
    });
    await settleAll(
      verificationReads(slots).map(async ({ streamId, from, count }) => {
        for (const record of await this.readStreamRecords(streamId, { fromRevision: BigInt(from), direction: FORWARDS, maxCount: count })) {
          if (!wanted.get(revisionKey(record.streamId, fromEsdbRevision(record.revision)))?.has(record.id.toLowerCase())) continue;
          const event = toRecordedEvent(record);
          if (event.metadata.correlationId === correlationId) found.set(event.eventId, event);
        }
      }),
    );
    return [...found.values()].sort((a, b) => comparePositions(a.position, b.position));
  }

  async countCommittedNotYetReadable(): Promise<number> {
    return 0;
  }

  onAppended(listener: () => void): () => void {
    this.appended.on('appended', listener);
    this.startWatcher();
    return () => {
      this.appended.off('appended', listener);
      if (this.appended.listenerCount('appended') === 0) this.stopWatcher();
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopWatcher();
    await this.watcherStopping;
    this.appended.removeAllListeners();
    await this.client.dispose();
  }

  // --- appending ---

  private async tryAppend(
    streamId: string,
    events: NewEvent[],
    ids: string[],
    data: EventData[],
    expected: ExpectedRevision,
    known: Map<string, number>,
  ): Promise<Attempt> {
    // 1. The revision the events go after (-1: no stream).
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
    const [claiming, indexing] = await Promise.allSettled([this.claimIds(streamId, ids, first, known), this.writeCorrelationIntents(streamId, events, first)]);
    if (claiming.status === 'rejected') throw claiming.reason;
    if (indexing.status === 'rejected') throw indexing.reason;
    const claimed = claiming.value;
    if (claimed === 'contended') return { kind: 'retry', error: new Error(`stream ${streamId}: event-id claims kept changing under this append`) };
    if (claimed.kind === 'deduplicated') return { kind: 'done', result: await this.deduplicated(streamId) };
    if (claimed.kind === 'duplicate') throw new DuplicateEventIdError(claimed.eventIds);

    // 3. Append with the concrete expected revision.
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

    // 4. Read the events back for their revisions and $all positions.
    const stored = await this.readStreamRecords(streamId, { fromRevision: BigInt(first), direction: FORWARDS, maxCount: ids.length }, true);
    const storedIds = stored.map((event) => event.id.toLowerCase());
    if (storedIds.length !== ids.length || storedIds.some((id, index) => id !== ids[index])) {
      throw new Error(`stream ${streamId}: the append was acknowledged but revisions ${first}..${first + ids.length - 1} hold other events`);
    }
    const last = stored[stored.length - 1];
    const position = logPosition(last.position);
    this.appended.emit('appended');
    if (!position) {
      throw new EventStoreDbMappingError(
        `stream ${streamId}: the append was stored at revisions ${first}..${first + ids.length - 1}, but the server sent no log position for it (EventStoreDB ${MIN_SERVER_VERSION} or later is required)`,
      );
    }
    return { kind: 'done', result: { nextRevision: fromEsdbRevision(last.revision), position, deduplicated: false } };
  }

  /** Appends to any stream; errors the caller cannot act on as the client reports them are explained (see explainStreamError). */
  private async appendToStream(streamName: string, data: EventData[], expectedRevision: AppendExpectedRevision): Promise<EsdbAppendResult> {
    try {
      return await this.client.appendToStream(streamName, data, { expectedRevision, deadline: this.options.appendDeadlineMs });
    } catch (error) {
      throw explainStreamError(error, streamName, 'append');
    }
  }

  private async writeCorrelationIntents(streamId: string, events: NewEvent[], first: number): Promise<void> {
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

  /**
   * Writes our intent into each id's claim stream (creating it; or on top of our own previous intent), then reads
   * the claim streams that already had intents and verifies them. Claims another writer holds are taken over,
   * optimistically; 'contended' when someone else wrote a claim stream meanwhile.
   */
  private async claimIds(streamId: string, ids: string[], first: number, known: Map<string, number>): Promise<ClaimDecision | 'contended'> {
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
    const decision = decideClaims(streamId, await this.claimStates(streamId, ids, held, fresh), Date.now(), this.options.claimLeaseMs);
    if (decision.kind !== 'proceed' || decision.takeOver.length === 0) return decision;
    let contended = false;
    await settleAll(
      decision.takeOver.map(async ({ eventId, expectedClaimRevision }) => {
        try {
          known.set(eventId, await this.writeIntent(eventId, streamId, first + ids.indexOf(eventId), expectedClaimRevision));
        } catch (error) {
          if (!isWrongExpectedVersion(error)) throw error;
          contended = true;
        }
      }),
    );
    return contended ? 'contended' : decision;
  }

  /** Reads and verifies every id's claims without writing: is the batch stored somewhere already? */
  private async inspectClaims(streamId: string, ids: string[]): Promise<ClaimDecision> {
    return decideClaims(streamId, await this.claimStates(streamId, ids, new Set(), new Set()), Date.now(), this.options.claimLeaseMs);
  }

  private async writeIntent(eventId: string, streamId: string, revision: number, expectedClaimRevision: number): Promise<number> {
    const result = await this.appendToStream(claimStreamName(eventId), [claimEventData(streamId, revision)], toEsdbExpectedRevision(expectedClaimRevision));
    return fromEsdbRevision(result.nextExpectedRevision);
  }

  private async claimStates(streamId: string, ids: string[], held: ReadonlySet<string>, fresh: ReadonlySet<string>): Promise<ClaimState[]> {
    const histories = new Map<string, ClaimIntent[]>();
    await settleAll(
      ids.filter((id) => !fresh.has(id)).map(async (id) => {
        const records = await this.readStreamRecords(claimStreamName(id), { fromRevision: START, direction: FORWARDS, maxCount: MAX_CLAIM_HISTORY }, true);
        histories.set(id, records.flatMap((record) => parseClaimIntent(record) ?? []));
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

  /** Which (stream, revision, id) triples the intents point at really exist. */
  private async storedIds(intents: readonly ClaimIntent[]): Promise<Set<string>> {
    const found = new Set<string>();
    await settleAll(
      verificationReads(intents).map(async ({ streamId, from, count }) => {
        const records = await this.readStreamRecords(streamId, { fromRevision: BigInt(from), direction: FORWARDS, maxCount: count }, true);
        for (const record of records) found.add(storedKey(record.streamId, fromEsdbRevision(record.revision), record.id.toLowerCase()));
      }),
    );
    return found;
  }

  private async currentRevision(streamId: string): Promise<number | null> {
    const [last] = await this.readStreamRecords(streamId, { fromRevision: END, direction: BACKWARDS, maxCount: 1 }, true);
    return last ? fromEsdbRevision(last.revision) : null;
  }

  // --- reading ---

  /**
   * A stream's records ([] when it does not exist; a hard-deleted one fails with EventStoreDbStreamDeletedError).
   * Reads made to decide an append go to the leader.
   */
  private async readStreamRecords(
    streamId: string,
    options: { fromRevision: ReadRevision; direction: Direction; maxCount?: number },
    requiresLeader = false,
  ): Promise<EsdbRecordedEvent[]> {
    try {
      const read = this.client.readStream(streamId, {
        ...options,
        resolveLinkTos: false,
        requiresLeader,
        deadline: this.options.readIdleTimeoutMs,
      });
      const resolved = await collect(read, this.options.readIdleTimeoutMs, `read of ${streamId}`);
      return resolved.flatMap((event) => (event.event ? [event.event] : []));
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw explainStreamError(error, streamId, 'read');
    }
  }

  private allPages(direction: Direction): PageReader<AllStreamResolvedEvent> {
    return async (from, count) => {
      try {
        return await collect(
          this.client.readAll({
            fromPosition: from === 'start' ? START : from === 'end' ? END : toEsdbPosition(from),
            direction,
            maxCount: count,
            resolveLinkTos: false,
            deadline: this.options.readIdleTimeoutMs,
          }),
          this.options.readIdleTimeoutMs,
          `read of $all ${direction}`,
        );
      } catch (error) {
        throw explainAllStreamError(error);
      }
    };
  }

  // --- notifications ---

  private startWatcher(): void {
    if (!this.options.watchRemoteAppends || this.closed || this.watcher) return;
    this.watcher = subscribeToAllEvents(
      this.client,
      {
        from: 'end',
        backoff: this.options.subscriptionBackoff,
        onDrop: (error, attempt, delayMs) =>
          this.options.onWarning?.(`$all subscription dropped (attempt ${attempt}); reconnecting in ${delayMs} ms`, error),
        // Appends made while it was down were missed: wake the listeners once.
        onConnected: (reconnected) => {
          if (reconnected) this.notifySoon();
        },
      },
      async () => this.notifySoon(),
    );
  }

  private stopWatcher(): void {
    const watcher = this.watcher;
    if (!watcher) return;
    this.watcher = null;
    const previous = this.watcherStopping;
    this.watcherStopping = Promise.all([previous, watcher.stop().catch((error: unknown) => this.options.onWarning?.('$all subscription failed', error))]).then(
      () => undefined,
    );
  }

  /** Remote appends arrive one event at a time; listeners are woken once per burst. */
  private notifySoon(): void {
    if (this.notifyScheduled || this.closed) return;
    this.notifyScheduled = true;
    setImmediate(() => {
      this.notifyScheduled = false;
      if (!this.closed) this.appended.emit('appended');
    });
  }
}

/** Events per append when importing: small enough to stay under MaxAppendSize with ordinary events. */
const IMPORT_RUN_MAX = 100;

/** Splits events into runs of consecutive events of one stream at consecutive revisions (at most `max` each), keeping their order. */
function streamRuns(events: readonly HistoricalEvent[], max: number): HistoricalEvent[][] {
  const runs: HistoricalEvent[][] = [];
  for (const event of events) {
    const last = runs[runs.length - 1];
    const previous = last?.[last.length - 1];
    if (last && previous && last.length < max && previous.streamId === event.streamId && event.revision === previous.revision + 1) last.push(event);
    else runs.push([event]);
  }
  return runs;
}

function assertServiceStream(streamId: string): void {
  if (!streamId || streamId.startsWith('$') || isClaimStream(streamId) || isCorrelationStream(streamId)) {
    throw new Error(`stream ${streamId}: names starting with $, ${claimStreamName('')} or ${correlationStreamName('')} are reserved`);
  }
}

/** Refuses a batch the server would refuse, before any claim or index intent is written for it. */
function assertAppendFits(streamId: string, data: readonly EventData[], maxAppendSizeBytes: number): void {
  const size = appendSizeBytes(data);
  if (size <= maxAppendSizeBytes) return;
  throw new EventStoreDbAppendTooLargeError(
    streamId,
    `a batch of ${data.length} events is ${size} bytes, more than EventStoreDB's MaxAppendSize of ${maxAppendSizeBytes} bytes`,
  );
}

const revisionKey = (streamId: string, revision: number): string => `${streamId}\u0000${revision}`;

const positionOfResolved = (resolved: AllStreamResolvedEvent): GlobalPosition | null => (resolved.event ? logPosition(resolved.event.position) : null);

const storedKey = (streamId: string, revision: number, eventId: string): string => `${streamId}\u0000${revision}\u0000${eventId}`;

/**
 * Collects a streaming read with `for await`. A read that receives nothing for `idleMs` is cancelled
 * and fails with EventStoreDbReadTimeoutError.
 */
export async function collect<E>(read: StreamingRead<E>, idleMs: number, what: string): Promise<E[]> {
  // The iterator sees errors itself; this keeps a late one (after the loop ended) from being unhandled.
  read.on('error', () => undefined);
  const items: E[] = [];
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      read.destroy(new EventStoreDbReadTimeoutError(what, idleMs));
      read.cancel().catch(() => undefined);
    }, idleMs);
  };
  arm();
  try {
    for await (const item of read as AsyncIterable<E>) {
      items.push(item);
      arm();
    }
  } finally {
    clearTimeout(timer);
  }
  return items;
}

/** Like Promise.all, but waits for every task before rethrowing the first failure, so none is left running. */
async function settleAll(tasks: Promise<void>[]): Promise<void> {
  const outcomes = await Promise.allSettled(tasks);
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
