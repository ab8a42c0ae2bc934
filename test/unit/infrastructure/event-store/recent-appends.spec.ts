import { GlobalPosition, RecordedEvent, UntypedEvent } from '../../../../src/application/ports/event-store.port';
import { RecentAppends } from '../../../../src/infrastructure/event-store/recent-appends';

const at = (commit: number, prepare: number): GlobalPosition => ({ commit: BigInt(commit), prepare: BigInt(prepare) });

const event = (commit: number, prepare: number): RecordedEvent<UntypedEvent> => ({
  eventId: `event-${prepare}`,
  type: 'Credited',
  schemaVersion: 1,
  data: { n: prepare },
  metadata: {
    partnerId: null,
    environment: null,
    correlationId: 'c',
    causationId: null,
    actor: { type: 'system', id: 'test' },
    occurredAt: '2026-11-29T00:00:00.000Z',
  },
  streamId: 'wallet-1',
  revision: prepare,
  position: at(commit, prepare),
  recordedAt: '2026-11-29T00:00:00.000Z',
});

const positions = (...events: RecordedEvent<UntypedEvent>[]) => events.map((kept) => kept.position);

describe('RecentAppends, the events a projector need not read back', () => {
  it('keeps nothing while no reader reads through it', () => {
    const recent = new RecentAppends<UntypedEvent>();
    recent.remember([event(10, 1)]);
    expect(recent.size).toBe(0);
    expect(recent.at([at(10, 1)])).toEqual([undefined]);
  });

  it('gives the kept events in the order asked, and nothing for a position it does not keep or at another commit', () => {
    const recent = new RecentAppends<UntypedEvent>();
    recent.readerAt('read-models', null);
    const [a, b, c] = [event(10, 1), event(11, 2), event(12, 3)];
    recent.remember([a, b, c]);
    expect(recent.at(positions(a, c))).toEqual([a, c]);
    expect(recent.at([...positions(a, b), at(13, 4)])).toEqual([a, b, undefined]);
    expect(recent.at([at(99, 2)])).toEqual([undefined]);
  });

  it('lets an event go once every reader has applied it, not before', () => {
    const recent = new RecentAppends<UntypedEvent>();
    recent.readerAt('read-models', null);
    recent.readerAt('reactions', null);
    const [a, b, c] = [event(10, 1), event(11, 2), event(12, 3)];
    recent.remember([a, b, c]);
    recent.readerAt('read-models', c.position);
    expect(recent.size).toBe(3);
    recent.readerAt('reactions', a.position);
    expect(recent.at(positions(b, c))).toEqual([b, c]);
    expect(recent.at(positions(a))).toEqual([undefined]);
    recent.readerAt('reactions', c.position);
    expect(recent.size).toBe(0);
  });

  it('keeps nothing more, and lets go of what it held, once no reader has read for five seconds', () => {
    let now = 0;
    const recent = new RecentAppends<UntypedEvent>(100, () => now);
    recent.readerAt('read-models', null);
    const [a, b, c] = [event(10, 1), event(11, 2), event(12, 3)];
    recent.remember([a]);
    now = 4_999;
    recent.remember([b]);
    expect(recent.at(positions(a, b))).toEqual([a, b]);
    now = 10_000;
    recent.remember([c]);
    expect(recent.size).toBe(0);
    recent.readerAt('read-models', null);
    recent.remember([c]);
    expect(recent.at(positions(c))).toEqual([c]);
  });

  it('holds at most its capacity, the oldest appends going first', () => {
    const recent = new RecentAppends<UntypedEvent>(2);
    recent.readerAt('stopped reader', null);
    const [a, b, c] = [event(10, 1), event(11, 2), event(12, 3)];
    recent.remember([a, b]);
    recent.remember([c]);
    expect(recent.size).toBe(2);
    expect(recent.at(positions(a))).toEqual([undefined]);
    expect(recent.at(positions(b, c))).toEqual([b, c]);
  });
});
