import {
  EventStreamWatch,
  StreamEndReason,
  TooManyStreams,
  WatchedStream,
} from '../../../../src/application/events-feed/event-stream-watch';
import { EventStreamLeases, LeaseRefusal } from '../../../../src/application/ports/event-stream-leases.port';
import {
  FeedOwner,
  FeedPosition,
  PartnerEventFeed,
  feedOwnerKey,
} from '../../../../src/application/ports/partner-event-feed.port';
import { ApiKeyAccess, ReadModels } from '../../../../src/application/ports/read-models.port';
import { ServiceSettings } from '../../../../src/application/shared/service-settings';
import { defaultSettings } from '../../../../src/domain/partner/partner-settings';
import { Environment } from '../../../../src/domain/shared/environment';
import { ManualClock } from '../../../support/manual-clock';

const NOW = new Date('2026-05-01T12:00:00.000Z');

const access = (keyId: string, partnerId: string, overrides: Partial<ApiKeyAccess> = {}): ApiKeyAccess => ({
  key: { keyId, partnerId, environment: 'sandbox', active: true },
  partner: { partnerId, name: 'P', corridor: 'IN', kycStatus: 'approved', createdAt: NOW.toISOString() },
  settings: defaultSettings(),
  restriction: null,
  recordProblem: null,
  accessChangePending: false,
  ...overrides,
});

class Recorded implements WatchedStream {
  readonly environment: Environment = 'sandbox';
  readonly verifiedHeads: (FeedPosition | null)[] = [];
  ended: { reason: StreamEndReason; detail: string } | null = null;

  constructor(
    readonly streamId: string,
    readonly partnerId: string,
    readonly keyId: string,
    readonly ip = '127.0.0.1',
  ) {}

  verified(head: FeedPosition | null): void {
    this.verifiedHeads.push(head);
  }

  end(reason: StreamEndReason, detail: string): void {
    this.ended = { reason, detail };
  }
}

/** The watch over in-memory stand-ins that record every read made. */
function watchOver(accesses: Map<string, ApiKeyAccess>, refusal: LeaseRefusal = null) {
  const calls: string[] = [];
  const feed: PartnerEventFeed = {
    entries: () => Promise.reject(new Error('the watch reads no entries')),
    latest: () => Promise.reject(new Error('the watch reads no entries')),
    heads: (owners: readonly FeedOwner[]) => {
      calls.push(`heads ${owners.map(feedOwnerKey).join(',')}`);
      return Promise.resolve(new Map(owners.map((owner) => [feedOwnerKey(owner), { commit: 7n, prepare: 1n }])));
    },
  };
  const readModels = {
    apiKeyAccessByIds: (keyIds: readonly string[]) => {
      calls.push(`keys ${[...keyIds].sort().join(',')}`);
      return Promise.resolve(new Map([...accesses].filter(([keyId]) => keyIds.includes(keyId))));
    },
  } as unknown as ReadModels;
  const leases: EventStreamLeases = {
    acquire: () => Promise.resolve(refusal),
    renew: () => Promise.resolve(),
    release: () => Promise.resolve(),
  };
  const settings = { eventStreamsPerKey: 2, eventStreamsPerPartner: 10 } as ServiceSettings;
  const clock = new ManualClock(NOW);
  const watch = new EventStreamWatch(feed, readModels, leases, clock, settings);
  return { watch, calls, feed, clock };
}

describe('the event stream watch', () => {
  afterEach(() => jest.useRealTimers());

  it('checks every open stream with one read of the feed heads and one of the keys, however many streams are open', async () => {
    const accesses = new Map([
      ['key_a', access('key_a', 'p1')],
      ['key_b', access('key_b', 'p1')],
      ['key_c', access('key_c', 'p2')],
    ]);
    const { watch, calls } = watchOver(accesses);
    const streams = [
      ...Array.from({ length: 4 }, (_, index) => new Recorded(`s${index}`, 'p1', 'key_a')),
      ...Array.from({ length: 4 }, (_, index) => new Recorded(`t${index}`, 'p1', 'key_b')),
      ...Array.from({ length: 4 }, (_, index) => new Recorded(`u${index}`, 'p2', 'key_c')),
    ];
    for (const stream of streams) await watch.watch(stream);
    await watch.check();
    // The heads first: what a stream may send was in the feed before its key was found good.
    expect(calls).toEqual(['heads p1 sandbox,p2 sandbox', 'keys key_a,key_b,key_c']);
    for (const stream of streams) {
      expect(stream.ended).toBeNull();
      expect(stream.verifiedHeads).toEqual([{ commit: 7n, prepare: 1n }]);
    }
    watch.onApplicationShutdown();
  });

  it.each([
    [
      'a revoked key',
      access('key_a', 'p1', { key: { keyId: 'key_a', partnerId: 'p1', environment: 'sandbox', active: false } }),
      'key_revoked',
    ],
    [
      'a key whose record is inconsistent',
      access('key_a', 'p1', { recordProblem: 'a restricted key without its terms' }),
      'key_revoked',
    ],
    [
      'an expired key',
      access('key_a', 'p1', {
        restriction: {
          label: 'x',
          scope: 'read_only',
          perOrderMax: null,
          dailyMax: null,
          rateLimitPerMinute: null,
          expiresAt: NOW.toISOString(),
        },
      }),
      'key_expired',
    ],
    ['a pending access change', access('key_a', 'p1', { accessChangePending: true }), 'access_change_pending'],
    [
      'an allowlist without the address',
      access('key_a', 'p1', { settings: { ...defaultSettings(), ipAllowlist: ['203.0.113.1'] } }),
      'ip_not_allowed',
    ],
    ['a key of another partner', access('key_a', 'p9'), 'key_revoked'],
  ])('ends the stream of %s, with its reason, and only that one', async (_, refused, reason) => {
    const { watch } = watchOver(
      new Map([
        ['key_a', refused],
        ['key_b', access('key_b', 'p1')],
      ]),
    );
    const ended = new Recorded('s1', 'p1', 'key_a');
    const kept = new Recorded('s2', 'p1', 'key_b');
    await watch.watch(ended);
    await watch.watch(kept);
    await watch.check();
    expect(ended.ended?.reason).toBe(reason);
    expect(ended.verifiedHeads).toEqual([]);
    expect(kept.ended).toBeNull();
    watch.onApplicationShutdown();
  });

  it('ends a live key’s stream once its partner is suspended', async () => {
    const suspended = access('key_live', 'p1', {
      key: { keyId: 'key_live', partnerId: 'p1', environment: 'live', active: true },
    });
    suspended.partner = {
      partnerId: 'p1',
      name: 'P',
      corridor: 'IN',
      kycStatus: 'suspended',
      createdAt: NOW.toISOString(),
    };
    const { watch } = watchOver(new Map([['key_live', suspended]]));
    const stream = Object.assign(new Recorded('s1', 'p1', 'key_live'), { environment: 'live' });
    await watch.watch(stream);
    await watch.check();
    expect(stream.ended?.reason).toBe('kyc_suspended');
    watch.onApplicationShutdown();
  });

  it('ends every stream when the check cannot be made (fail closed)', async () => {
    const { watch, feed } = watchOver(new Map([['key_a', access('key_a', 'p1')]]));
    feed.heads = () => Promise.reject(new Error('connection refused'));
    const stream = new Recorded('s1', 'p1', 'key_a');
    await watch.watch(stream);
    await watch.check();
    expect(stream.ended?.reason).toBe('service_unavailable');
    watch.onApplicationShutdown();
  });

  it('checks by itself at least once a second while streams are open', async () => {
    jest.useFakeTimers();
    const { watch, calls } = watchOver(new Map([['key_a', access('key_a', 'p1')]]));
    const stream = new Recorded('s1', 'p1', 'key_a');
    await watch.watch(stream);
    for (let second = 1; second <= 3; second++) {
      await jest.advanceTimersByTimeAsync(1_000);
      expect(stream.verifiedHeads).toHaveLength(second);
    }
    expect(calls.filter((call) => call.startsWith('heads'))).toHaveLength(3);
    watch.onApplicationShutdown();
  });

  it('refuses a stream beyond the limits', async () => {
    const byKey = watchOver(new Map(), 'key').watch;
    await expect(byKey.watch(new Recorded('s1', 'p1', 'key_a'))).rejects.toThrow(TooManyStreams);
    await expect(byKey.watch(new Recorded('s1', 'p1', 'key_a'))).rejects.toThrow(/per API key/);
    const byPartner = watchOver(new Map(), 'partner').watch;
    await expect(byPartner.watch(new Recorded('s1', 'p1', 'key_a'))).rejects.toThrow(/per partner and environment/);
  });
});
