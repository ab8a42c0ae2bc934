import { RecordedEvent as EsdbRecordedEvent } from '@eventstore/db-client';
import {
  CLAIM_EVENT_TYPE,
  ClaimIntent,
  ClaimState,
  claimEventData,
  claimStreamName,
  correlationEventData,
  correlationIntents,
  correlationStreamName,
  decideClaims,
  parseClaimIntent,
  parseCorrelationIntent,
  verificationReads,
} from '../../../../src/infrastructure/event-store/eventstoredb-event-ids';

const NOW = 1_700_000_000_000;
const LEASE = 60_000;

const intent = (streamId: string, revision: number, ageMs = 1_000, claimRevision = 0): ClaimIntent => ({
  streamId,
  revision,
  claimRevision,
  recordedAtMs: NOW - ageMs,
});

const state = (eventId: string, overrides: Partial<ClaimState> = {}): ClaimState => ({
  eventId,
  held: false,
  stored: null,
  latest: null,
  ...overrides,
});

const recorded = (type: string, data: unknown, revision = 0n): EsdbRecordedEvent =>
  ({
    streamId: 'x',
    id: '00000000-0000-4000-8000-000000000000',
    isJson: true,
    revision,
    type,
    created: new Date(NOW),
    data,
    metadata: undefined,
  }) as EsdbRecordedEvent;

describe('event-id claims: the decision', () => {
  it('proceeds without writing more when every claim is freshly ours', () => {
    expect(decideClaims('s', [state('a', { held: true }), state('b', { held: true })], NOW, LEASE)).toEqual({
      kind: 'proceed',
      takeOver: [],
    });
  });

  it('is a no-op when every id is stored in the target stream', () => {
    const states = [
      state('a', { stored: { streamId: 's', revision: 0 } }),
      state('b', { stored: { streamId: 's', revision: 1 } }),
    ];
    expect(decideClaims('s', states, NOW, LEASE)).toEqual({ kind: 'deduplicated' });
  });

  it('refuses an id stored in another stream, before anything else', () => {
    const states = [
      state('a', { stored: { streamId: 's', revision: 0 } }),
      state('b', { stored: { streamId: 'other', revision: 4 } }),
    ];
    expect(decideClaims('s', states, NOW, LEASE)).toEqual({
      kind: 'duplicate',
      reason: 'stored-elsewhere',
      eventIds: ['b'],
    });
  });

  it('refuses a batch where only some ids are stored (a partial repeat)', () => {
    const states = [state('a', { stored: { streamId: 's', revision: 0 } }), state('b', { held: true })];
    expect(decideClaims('s', states, NOW, LEASE)).toEqual({
      kind: 'duplicate',
      reason: 'partly-stored',
      eventIds: ['a'],
    });
  });

  it('refuses an id another stream claimed within the lease: that append may still be in flight', () => {
    const states = [state('a', { held: true }), state('b', { latest: intent('other', 3, LEASE - 1, 0) })];
    expect(decideClaims('s', states, NOW, LEASE)).toEqual({
      kind: 'duplicate',
      reason: 'claimed-elsewhere',
      eventIds: ['b'],
    });
  });

  it('takes over a stale claim of another stream and any unverified claim of this stream', () => {
    const states = [
      state('a', { held: true }),
      state('b', { latest: intent('other', 3, LEASE + 1, 2) }),
      state('c', { latest: intent('s', 9, 10, 0) }),
      state('d', { latest: null }),
    ];
    expect(decideClaims('s', states, NOW, LEASE)).toEqual({
      kind: 'proceed',
      takeOver: [
        { eventId: 'b', expectedClaimRevision: 2 },
        { eventId: 'c', expectedClaimRevision: 0 },
        { eventId: 'd', expectedClaimRevision: -1 },
      ],
    });
  });
});

describe('event-id claims: records', () => {
  it('names one claim stream per id and round-trips an intent', () => {
    expect(claimStreamName('AbC-1')).toBe('eventid-abc-1');
    const data = claimEventData('order-1', 4);
    expect(data).toMatchObject({
      type: CLAIM_EVENT_TYPE,
      contentType: 'application/json',
      data: { streamId: 'order-1', revision: 4 },
    });
    expect(parseClaimIntent(recorded(data.type, data.data, 2n))).toEqual({
      streamId: 'order-1',
      revision: 4,
      claimRevision: 2,
      recordedAtMs: NOW,
    });
  });

  it('ignores anything that is not an intent', () => {
    expect(parseClaimIntent(recorded('Other', { streamId: 's', revision: 1 }))).toBeNull();
    expect(parseClaimIntent(recorded(CLAIM_EVENT_TYPE, { streamId: 's', revision: -1 }))).toBeNull();
    expect(parseClaimIntent(recorded(CLAIM_EVENT_TYPE, { streamId: 's' }))).toBeNull();
  });

  it('reads neighbouring revisions of a stream together and far ones apart', () => {
    const reads = verificationReads([
      { streamId: 's', revision: 5 },
      { streamId: 's', revision: 3 },
      { streamId: 's', revision: 4 },
      { streamId: 's', revision: 5 },
      { streamId: 's', revision: 40 },
      { streamId: 't', revision: 0 },
    ]);
    expect(reads).toEqual([
      { streamId: 's', from: 3, count: 3 },
      { streamId: 's', from: 40, count: 1 },
      { streamId: 't', from: 0, count: 1 },
    ]);
    expect(verificationReads([])).toEqual([]);
  });
});

describe('correlation index', () => {
  it('writes one intent per correlation id of a batch, listing its events and their revisions', () => {
    const intents = correlationIntents(
      'wallet-1',
      [
        { eventId: 'A', correlationId: 'order-1' },
        { eventId: 'b', correlationId: 'order-2' },
        { eventId: 'c', correlationId: 'order-1' },
      ],
      7,
    );
    expect([...intents]).toEqual([
      [
        'order-1',
        {
          streamId: 'wallet-1',
          events: [
            { revision: 7, eventId: 'a' },
            { revision: 9, eventId: 'c' },
          ],
        },
      ],
      ['order-2', { streamId: 'wallet-1', events: [{ revision: 8, eventId: 'b' }] }],
    ]);
    expect(correlationStreamName('order-1')).toBe('correlationid-order-1');
  });

  it('round-trips an intent and ignores malformed ones', () => {
    const intent = { streamId: 'wallet-1', events: [{ revision: 7, eventId: 'a' }] };
    const data = correlationEventData(intent);
    expect(parseCorrelationIntent(recorded(data.type, data.data))).toEqual(intent);
    expect(
      parseCorrelationIntent(recorded(data.type, { streamId: 'w', events: [{ revision: 'x', eventId: 'a' }] })),
    ).toBeNull();
    expect(parseCorrelationIntent(recorded('Other', data.data))).toBeNull();
  });
});
