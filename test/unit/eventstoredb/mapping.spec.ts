import { ANY, EventData, NO_STREAM, RecordedEvent as EsdbRecordedEvent, STREAM_EXISTS, StreamNotFoundError, WrongExpectedVersionError } from '@eventstore/db-client';
import { parseConnectionString } from '@eventstore/db-client/dist/Client/parseConnectionString';
import { v4 as uuid } from 'uuid';
import { NewEvent, WrongExpectedRevisionError } from '../../../src/application/ports/event-store.port';
import {
  EventStoreDbMappingError,
  firstRevisionAfter,
  fromEsdbCurrentRevision,
  fromEsdbRevision,
  isServiceEvent,
  isStreamNotFound,
  isSystemEventType,
  isWrongExpectedVersion,
  positionKey,
  toEsdbExpectedRevision,
  toEsdbPosition,
  toEventData,
  toGlobalPosition,
  toRecordedEvent,
  translateAppendError,
  withClientSettings,
} from '../../../src/infrastructure/event-store/eventstoredb-mapping';

const newEvent = (overrides: Partial<NewEvent> = {}): NewEvent => ({
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
function asStored(data: EventData, streamId = 'wallet-1', revision = 3n, position = { commit: 700n, prepare: 650n }): EsdbRecordedEvent {
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
  } as EsdbRecordedEvent;
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

  it('fails loudly on events it cannot map, naming the stream and revision', () => {
    const data = toEventData(newEvent());
    expect(() => toRecordedEvent({ ...asStored(data, 'order-9', 4n), position: undefined } as EsdbRecordedEvent)).toThrow(/order-9@4: the server sent no log position \(EventStoreDB 22\.6/);
    expect(() => toRecordedEvent({ ...asStored(data), isJson: false, data: new Uint8Array([1]) } as EsdbRecordedEvent)).toThrow(/not a JSON object/);
    expect(() => toRecordedEvent(asStored({ ...data, metadata: { correlationId: 'x' } }))).toThrow(/\$schemaVersion/);
    expect(() => toRecordedEvent(asStored({ ...data, metadata: { $schemaVersion: 1 } }))).toThrow(/lacks correlationId/);
  });

  it('tells our events from system events and other applications’ events', () => {
    const ours = asStored(toEventData(newEvent()));
    expect(isServiceEvent(ours)).toBe(true);
    expect(isServiceEvent({ ...ours, type: '$statsCollection' } as EsdbRecordedEvent)).toBe(false);
    expect(isServiceEvent({ ...ours, metadata: { source: 'elsewhere' } } as EsdbRecordedEvent)).toBe(false);
    expect(isServiceEvent({ ...ours, metadata: undefined } as EsdbRecordedEvent)).toBe(false);
    expect(isServiceEvent({ ...ours, isJson: false, data: new Uint8Array() } as EsdbRecordedEvent)).toBe(false);
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
    const missing = new WrongExpectedVersionError(undefined, { streamName: 'order-2', expected: 0n, current: NO_STREAM });
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
  });
});

describe('EventStoreDB connection settings', () => {
  it('adds keep-alive and deadline settings and forces throwOnAppendFailure', () => {
    const url = withClientSettings('esdb://localhost:2113?tls=false');
    expect(url).toBe('esdb://localhost:2113?tls=false&keepAliveInterval=10000&keepAliveTimeout=10000&defaultDeadline=10000&throwOnAppendFailure=true');
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
    const url = withClientSettings('esdb+discover://admin:changeit@cluster.local:2113/?keep_alive_interval=20000&DefaultDeadline=5000&throwOnAppendFailure=false');
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
    expect(parseConnectionString(withClientSettings('esdb://a:2113,b:2113'))).toMatchObject({ hosts: [{ address: 'a' }, { address: 'b' }], keepAliveTimeout: 10_000 });
  });
});
