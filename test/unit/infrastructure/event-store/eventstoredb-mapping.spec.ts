import {
  ANY,
  AccessDeniedError,
  DeadlineExceededError,
  EventData,
  MaxAppendSizeExceededError,
  NO_STREAM,
  RecordedEvent as EsdbRecordedEvent,
  STREAM_EXISTS,
  StreamDeletedError,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
  jsonEvent,
} from '@eventstore/db-client';
import { parseConnectionString } from '@eventstore/db-client/dist/Client/parseConnectionString';
import { v4 as uuid } from 'uuid';
import { NewEvent, UntypedEvent, WrongExpectedRevisionError } from '../../../../src/application/ports/event-store.port';
import { appendSizeBytes } from '../../../../src/infrastructure/event-store/eventstoredb-append-size';
import { withClientSettings } from '../../../../src/infrastructure/event-store/eventstoredb-connection-string';
import {
  EventStoreDbAccessDeniedError,
  EventStoreDbAppendOutcomeUnknownError,
  EventStoreDbAppendTooLargeError,
  EventStoreDbStreamDeletedError,
  explainAllStreamError,
  explainStreamError,
  isAccessDenied,
  isMaxAppendSizeExceeded,
  isOutcomeUnknown,
  isStreamDeleted,
  isStreamNotFound,
  isWrongExpectedVersion,
  translateAppendError,
} from '../../../../src/infrastructure/event-store/eventstoredb-errors';
import {
  EventStoreDbMappingError,
  firstRevisionAfter,
  fromEsdbCurrentRevision,
  fromEsdbRevision,
  isServiceEvent,
  isSystemEventType,
  logPosition,
  positionKey,
  toEsdbExpectedRevision,
  toEsdbPosition,
  toEventData,
  toGlobalPosition,
  toRecordedEvent,
} from '../../../../src/infrastructure/event-store/eventstoredb-mapping';

const newEvent = (overrides: Partial<NewEvent<UntypedEvent>> = {}): NewEvent<UntypedEvent> => ({
  eventId: uuid(),
  type: 'WalletDebited',
  schemaVersion: 2,
  data: { amount: '10.50', nested: { list: [1, 'two', null] } },
  metadata: {
    partnerId: uuid(),
    environment: 'live',
    correlationId: uuid(),
    causationId: uuid(),
    actor: { type: 'operator', id: 'op-1' },
    occurredAt: '2024-05-01T10:00:00.000Z',
  },
  ...overrides,
});

/** What the client hands back for an event written with `data`: JSON through the wire, as the server stores it. */
function asStored(
  data: EventData,
  streamId = 'wallet-1',
  revision = 3n,
  position = { commit: 700n, prepare: 650n },
): EsdbRecordedEvent {
  return {
    streamId,
    id: data.id,
    isJson: data.contentType === 'application/json',
    revision,
    type: data.type,
    created: new Date('2024-05-01T10:00:01.234Z'),
    data: JSON.parse(JSON.stringify(data.data)),
    metadata: data.metadata === undefined ? undefined : JSON.parse(JSON.stringify(data.metadata)),
    position,
  };
}

describe('EventStoreDB event mapping', () => {
  it('writes data as JSON and metadata with $schemaVersion, $correlationId and $causationId beside our keys', () => {
    const event = newEvent();
    const data = toEventData(event);
    expect(data).toEqual({
      id: event.eventId,
      contentType: 'application/json',
      type: 'WalletDebited',
      data: event.data,
      metadata: {
        ...event.metadata,
        $schemaVersion: 2,
        $correlationId: event.metadata.correlationId,
        $causationId: event.metadata.causationId,
      },
    });
  });

  it('leaves $causationId out when there is no causation id', () => {
    const event = newEvent();
    const data = toEventData({ ...event, metadata: { ...event.metadata, causationId: null } });
    expect(data.metadata).not.toHaveProperty('$causationId');
    expect(data.metadata).toMatchObject({ causationId: null });
  });

  it('restores the event exactly: id, type, schema version, data, metadata, stream, revision, position', () => {
    const event = newEvent();
    const recorded = toRecordedEvent(asStored(toEventData(event)));
    expect(recorded).toEqual({
      ...event,
      streamId: 'wallet-1',
      revision: 3,
      position: { commit: 700n, prepare: 650n },
      recordedAt: '2024-05-01T10:00:01.234Z',
    });
    expect(Object.keys(recorded.metadata).sort()).toEqual(Object.keys(event.metadata).sort());
  });

  it('refuses to write what it could not read back', () => {
    expect(() => toEventData(newEvent({ eventId: 'not-a-uuid' }))).toThrow(EventStoreDbMappingError);
    expect(() => toEventData(newEvent({ type: '$metadata' }))).toThrow(/reserved/);
    expect(() => toEventData(newEvent({ schemaVersion: 1.5 }))).toThrow(EventStoreDbMappingError);
  });

  it.each([
    ['a server before 22.6 (2^64-1 for both)', { commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n }],
    ['a reply without the fields (protobuf defaults)', { commit: 0n, prepare: 0n }],
  ])(
    'fails loudly on a stream read without log positions, from %s, naming the minimum server version',
    (_from, position) => {
      const stored = asStored(toEventData(newEvent()), 'order-9', 4n, position);
      expect(() => toRecordedEvent(stored)).toThrow(EventStoreDbMappingError);
      expect(() => toRecordedEvent(stored)).toThrow(
        /order-9@4: the server sent no log position \(EventStoreDB 22\.6 or later is required\)/,
      );
    },
  );

  it('fails loudly on events it cannot map, naming the stream and revision', () => {
    const data = toEventData(newEvent());
    expect(() => toRecordedEvent({ ...asStored(data), isJson: false, data: new Uint8Array([1]) })).toThrow(
      /not a JSON object/,
    );
    expect(() => toRecordedEvent(asStored({ ...data, metadata: { correlationId: 'x' } }))).toThrow(/\$schemaVersion/);
    expect(() => toRecordedEvent(asStored({ ...data, metadata: { $schemaVersion: 1 } }))).toThrow(
      /lacks correlationId/,
    );
  });

  it('tells our events from system events and other applications’ events', () => {
    const ours = asStored(toEventData(newEvent()));
    expect(isServiceEvent(ours)).toBe(true);
    expect(isServiceEvent({ ...ours, type: '$statsCollection' })).toBe(false);
    expect(isServiceEvent({ ...ours, metadata: { source: 'elsewhere' } })).toBe(false);
    expect(isServiceEvent({ ...ours, metadata: undefined })).toBe(false);
    expect(isServiceEvent({ ...ours, isJson: false, data: new Uint8Array() })).toBe(false);
    expect(isSystemEventType('$>')).toBe(true);
    expect(isSystemEventType('Order$Placed')).toBe(false);
  });
});

describe('EventStoreDB positions and revisions', () => {
  it('keeps {commit, prepare} as bigints both ways, beyond 2^53 too', () => {
    const big = { commit: 2n ** 60n + 7n, prepare: 2n ** 60n + 3n };
    expect(toGlobalPosition(big)).toEqual(big);
    expect(toEsdbPosition(big)).toEqual(big);
    expect(toGlobalPosition(big)).not.toBe(big);
    expect(positionKey(big)).toBe(`${big.commit}/${big.prepare}`);
    expect(positionKey(null)).toBe('start');
  });

  it('takes 2^64-1 and 0/0 for "no position", and keeps every real one', () => {
    expect(logPosition({ commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n })).toBeNull();
    expect(logPosition({ commit: 0n, prepare: 0n })).toBeNull();
    expect(logPosition(undefined)).toBeNull();
    expect(logPosition({ commit: 1_200n, prepare: 1_200n })).toEqual({ commit: 1_200n, prepare: 1_200n });
    expect(logPosition({ commit: 2n ** 63n, prepare: 2n ** 63n - 5n })).toEqual({
      commit: 2n ** 63n,
      prepare: 2n ** 63n - 5n,
    });
  });

  it.each<[Parameters<typeof toEsdbExpectedRevision>[0], ReturnType<typeof toEsdbExpectedRevision>]>([
    ['any', ANY],
    ['no_stream', NO_STREAM],
    ['stream_exists', STREAM_EXISTS],
    [-1, NO_STREAM],
    [0, 0n],
    [41, 41n],
  ])('maps expected revision %p to %p', (ours, theirs) => {
    expect(toEsdbExpectedRevision(ours)).toBe(theirs);
  });

  it.each([-2, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2])('refuses expected revision %p', (bad) => {
    expect(() => toEsdbExpectedRevision(bad)).toThrow(RangeError);
  });

  it('counts revisions from 0 on both sides; no stream is -1 before the first event', () => {
    expect(fromEsdbRevision(0n)).toBe(0);
    expect(fromEsdbRevision(12n)).toBe(12);
    expect(() => fromEsdbRevision(2n ** 53n)).toThrow(RangeError);
    expect(fromEsdbCurrentRevision(NO_STREAM)).toBe('no_stream');
    expect(fromEsdbCurrentRevision(4n)).toBe(4);
    expect(firstRevisionAfter(-1)).toBe(0);
    expect(firstRevisionAfter(4)).toBe(5);
  });
});

describe('EventStoreDB error translation', () => {
  it('turns WrongExpectedVersionError into WrongExpectedRevisionError with the revision the caller asked for', () => {
    const esdb = new WrongExpectedVersionError(undefined, { streamName: 'order-1', expected: 1n, current: 3n });
    const translated = translateAppendError(esdb, 'order-1', 'stream_exists');
    expect(translated).toBeInstanceOf(WrongExpectedRevisionError);
    expect(translated).toMatchObject({ streamId: 'order-1', expected: 'stream_exists', actual: 3 });
    const missing = new WrongExpectedVersionError(undefined, {
      streamName: 'order-2',
      expected: 0n,
      current: NO_STREAM,
    });
    expect(translateAppendError(missing, 'order-2', 0)).toMatchObject({ expected: 0, actual: 'no_stream' });
  });

  it('recognises the errors by type when they come from another copy of the client', () => {
    const foreign = Object.assign(new Error('wrong'), { type: 'wrong-expected-version', actualVersion: 2n });
    expect(isWrongExpectedVersion(foreign)).toBe(true);
    expect(translateAppendError(foreign, 's', 0)).toMatchObject({ actual: 2 });
    expect(isStreamNotFound(new StreamNotFoundError(undefined, 's'))).toBe(true);
    expect(isStreamNotFound(Object.assign(new Error('gone'), { type: 'stream-not-found' }))).toBe(true);
    expect(isStreamNotFound(new Error('other'))).toBe(false);
  });

  it('passes other errors through unchanged', () => {
    const other = new Error('unavailable');
    expect(translateAppendError(other, 's', 'any')).toBe(other);
    expect(explainAllStreamError(other)).toBe(other);
    expect(explainStreamError(other, 's', 'read')).toBe(other);
    const wrong = new WrongExpectedVersionError(undefined, { streamName: 's', expected: 1n, current: 3n });
    expect(explainStreamError(wrong, 's', 'append')).toBe(wrong);
  });

  it('recognises tombstones, access denied, oversized appends and writes of unknown outcome, from any copy of the client', () => {
    expect(isStreamDeleted(StreamDeletedError.fromStreamName('s'))).toBe(true);
    expect(isStreamDeleted(Object.assign(new Error('gone'), { type: 'stream-deleted' }))).toBe(true);
    expect(isStreamDeleted(new StreamNotFoundError(undefined, 's'))).toBe(false);
    expect(isAccessDenied(new AccessDeniedError())).toBe(true);
    expect(isAccessDenied(Object.assign(new Error('no'), { type: 'access-denied' }))).toBe(true);
    expect(isMaxAppendSizeExceeded(MaxAppendSizeExceededError.fromMaxAppendSize(1_048_576))).toBe(true);
    expect(isOutcomeUnknown(new DeadlineExceededError())).toBe(true);
    expect(isOutcomeUnknown(new UnavailableError())).toBe(true);
    expect(isOutcomeUnknown(Object.assign(new Error('late'), { type: 'deadline-exceeded' }))).toBe(true);
    expect(
      isOutcomeUnknown(new WrongExpectedVersionError(undefined, { streamName: 's', expected: 1n, current: 3n })),
    ).toBe(false);
  });

  it('says which right is missing when access to $all or to a stream is denied', () => {
    const denied = new AccessDeniedError();
    const onAll = explainAllStreamError(denied);
    expect(onAll).toBeInstanceOf(EventStoreDbAccessDeniedError);
    expect(onAll).toMatchObject({ cause: denied });
    expect((onAll as Error).message).toContain(
      "the service's EventStoreDB user must be able to read $all: put it in $admins or grant read on $$$all",
    );
    expect(explainStreamError(denied, 'wallet-1', 'append')).toMatchObject({
      name: 'EventStoreDbAccessDeniedError',
      message: expect.stringMatching(
        /appending to stream wallet-1; the service's EventStoreDB user must be able to read and write/,
      ),
    });
  });

  it('refuses to take a tombstoned stream for a missing one, and names the server’s append size limit', () => {
    const deleted = explainStreamError(StreamDeletedError.fromStreamName('wallet-1'), 'wallet-1', 'read');
    expect(deleted).toBeInstanceOf(EventStoreDbStreamDeletedError);
    expect(deleted).toMatchObject({
      streamId: 'wallet-1',
      message: expect.stringMatching(/wallet-1 was hard-deleted \(tombstoned\).*will not read it as empty/),
    });
    const tooLarge = explainStreamError(MaxAppendSizeExceededError.fromMaxAppendSize(1_048_576), 'wallet-1', 'append');
    expect(tooLarge).toBeInstanceOf(EventStoreDbAppendTooLargeError);
    expect((tooLarge as Error).message).toBe(
      'stream wallet-1: EventStoreDB refused the batch as larger than its MaxAppendSize (1048576 bytes); nothing was written',
    );
  });

  it('tells the caller of an append of unknown outcome to read before deciding', () => {
    const cause = new DeadlineExceededError();
    const unknown = new EventStoreDbAppendOutcomeUnknownError('wallet-1', { cause });
    expect(unknown.cause).toBe(cause);
    expect(unknown.message).toBe(
      "stream wallet-1: the append's outcome is unknown (deadline-exceeded); it may have been written: read the stream before deciding again",
    );
  });
});

describe('EventStoreDB append size', () => {
  it('counts what the server counts against MaxAppendSize: data and metadata bytes, two per character of the type', () => {
    const event = jsonEvent({ type: 'Credited', data: { note: 'é' }, metadata: { a: 1 } });
    // {"note":"é"} is 13 bytes (é is 2 in UTF-8), {"a":1} is 7, "Credited" counts 16.
    expect(appendSizeBytes([event])).toBe(13 + 7 + 16);
    expect(appendSizeBytes([event, event])).toBe(2 * 36);
    expect(appendSizeBytes([jsonEvent({ type: 'T', data: {} })])).toBe(2 + 2);
    expect(
      appendSizeBytes([
        {
          id: uuid(),
          contentType: 'application/octet-stream',
          type: 'B',
          data: new Uint8Array(10),
          metadata: undefined,
        },
      ]),
    ).toBe(12);
  });
});

describe('EventStoreDB connection settings', () => {
  it('adds keep-alive and deadline settings and forces throwOnAppendFailure', () => {
    const url = withClientSettings('esdb://localhost:2113?tls=false');
    expect(url).toBe(
      'esdb://localhost:2113?tls=false&keepAliveInterval=10000&keepAliveTimeout=10000&defaultDeadline=10000&throwOnAppendFailure=true',
    );
    expect(parseConnectionString(url)).toMatchObject({
      hosts: [{ address: 'localhost', port: 2113 }],
      tls: false,
      keepAliveInterval: 10_000,
      keepAliveTimeout: 10_000,
      defaultDeadline: 10_000,
      throwOnAppendFailure: true,
    });
  });

  it('keeps what the connection string sets, however it spells the key', () => {
    const url = withClientSettings(
      'esdb+discover://admin:changeit@cluster.local:2113/?keep_alive_interval=20000&DefaultDeadline=5000&throwOnAppendFailure=false',
    );
    expect(parseConnectionString(url)).toMatchObject({
      dnsDiscover: true,
      defaultCredentials: { username: 'admin', password: 'changeit' },
      keepAliveInterval: 20_000,
      keepAliveTimeout: 10_000,
      defaultDeadline: 5_000,
      throwOnAppendFailure: true,
    });
  });

  it('works without a query string', () => {
    expect(parseConnectionString(withClientSettings('esdb://a:2113,b:2113'))).toMatchObject({
      hosts: [{ address: 'a' }, { address: 'b' }],
      keepAliveTimeout: 10_000,
    });
  });
});
