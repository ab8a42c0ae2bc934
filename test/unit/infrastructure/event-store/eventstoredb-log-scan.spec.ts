import { GlobalPosition } from '../../../../src/application/ports/event-store.port';
import {
  PageReader,
  SkipCache,
  countForward,
  nextHeadMemo,
  scanBackward,
  scanForward,
} from '../../../../src/infrastructure/event-store/eventstoredb-log-scan';

interface Rec {
  position: GlobalPosition;
  wanted: boolean;
  name: string;
}

const at = (commit: number, prepare = commit): GlobalPosition => ({ commit: BigInt(commit), prepare: BigInt(prepare) });

/** A log where `w` marks records to select and `s` ones to skip (system events, claims...). Positions share commits in pairs. */
function log(pattern: string): Rec[] {
  return Array.from(pattern).map((mark, i) => ({
    position: at(100 * Math.floor(i / 2) + 100, 100 * i + 100),
    wanted: mark === 'w',
    name: `${mark}${i}`,
  }));
}

const cmp = (a: GlobalPosition, b: GlobalPosition): number =>
  a.commit === b.commit ? Number(a.prepare - b.prepare) : Number(a.commit - b.commit);

/** Pages over `records` the way the server does: forwards from a position includes it (or not, as asked), backwards excludes it. */
function pages(records: Rec[], forwardInclusive = true): PageReader<Rec> & { calls: number } {
  const reader = async (from: GlobalPosition | 'start' | 'end', count: number): Promise<Rec[]> => {
    reader.calls++;
    if (from === 'end') return [...records].reverse().slice(0, count);
    if (from === 'start') return records.slice(0, count);
    const forward = records.filter((r) => (forwardInclusive ? cmp(r.position, from) >= 0 : cmp(r.position, from) > 0));
    return forward.slice(0, count);
  };
  reader.calls = 0;
  return reader;
}

function backPages(records: Rec[]): PageReader<Rec> & { calls: number } {
  const reader = async (from: GlobalPosition | 'start' | 'end', count: number): Promise<Rec[]> => {
    reader.calls++;
    const older = from === 'end' ? records : from === 'start' ? [] : records.filter((r) => cmp(r.position, from) < 0);
    return [...older].reverse().slice(0, count);
  };
  reader.calls = 0;
  return reader;
}

const forward = { positionOf: (r: Rec) => r.position, select: (r: Rec) => (r.wanted ? r.name : null) };

describe('$all forward scan', () => {
  it.each([true, false])(
    'returns wanted records strictly after `after`, across pages (read from a position inclusive: %p)',
    async (inclusive) => {
      const records = log('wswsssswwsw');
      const after = records[2].position;
      const result = await scanForward(pages(records, inclusive), { ...forward, after, maxCount: 100, pageSize: 3 });
      expect(result.results).toEqual(['w7', 'w8', 'w10']);
      expect(result.reachedEnd).toBe(true);
      expect(result.scannedTo).toEqual(records[10].position);
    },
  );

  it('stops at maxCount, reporting where it stopped', async () => {
    const records = log('wwwww');
    const result = await scanForward(pages(records), { ...forward, after: null, maxCount: 2, pageSize: 64 });
    expect(result).toEqual({ results: ['w0', 'w1'], scannedTo: records[1].position, reachedEnd: false });
  });

  it('reads past a long run of skipped records to fill the page', async () => {
    const records = log(`w${'s'.repeat(250)}ww`);
    const reader = pages(records);
    const result = await scanForward(reader, { ...forward, after: records[0].position, maxCount: 2, pageSize: 64 });
    expect(result.results).toEqual(['w251', 'w252']);
    expect(reader.calls).toBe(4);
  });

  it('stops before records after `until` and counts what lies in (after, until]', async () => {
    const records = log('wwswwsw');
    const walk = {
      after: records[0].position,
      until: records[4].position,
      pageSize: 2,
      positionOf: (r: Rec) => r.position,
    };
    expect(await countForward(pages(records), walk, (r) => r.wanted)).toBe(3);
    expect(await countForward(pages(records), { ...walk, after: null, until: null }, (r) => r.wanted)).toBe(5);
    expect(await countForward(pages(records), { ...walk, after: records[4].position }, (r) => r.wanted)).toBe(0);
  });

  it('fails instead of looping when the server does not move past a position', async () => {
    const stuck: PageReader<Rec> = async () => log('ss');
    await expect(scanForward(stuck, { ...forward, after: null, maxCount: 1, pageSize: 2 })).rejects.toThrow(
      /no progress/,
    );
  });
});

describe('$all backward scan (head position)', () => {
  it('finds the newest wanted record behind trailing skipped ones', async () => {
    const records = log(`wsw${'s'.repeat(70)}`);
    const reader = backPages(records);
    const result = await scanBackward(reader, {
      pageSize: 64,
      stopAt: null,
      positionOf: (r) => r.position,
      select: (r) => (r.wanted ? r.position : null),
    });
    expect(result).toEqual({
      found: records[2].position,
      top: records[records.length - 1].position,
      reachedStop: false,
    });
    expect(reader.calls).toBe(2);
  });

  it('stops at what it already knows, and the memo keeps the head', async () => {
    const records = log('wwsss');
    const first = await scanBackward(backPages(records), {
      pageSize: 2,
      stopAt: null,
      positionOf: (r) => r.position,
      select: (r) => (r.wanted ? r.position : null),
    });
    const { head, memo } = nextHeadMemo(null, first);
    expect(head).toEqual(records[1].position);
    records.push(
      ...log('ssssssss')
        .slice(5)
        .map((r, i) => ({ ...r, name: `s${5 + i}` })),
    );
    const reader = backPages(records);
    const second = await scanBackward(reader, {
      pageSize: 64,
      stopAt: memo?.top ?? null,
      positionOf: (r) => r.position,
      select: (r) => (r.wanted ? r.position : null),
    });
    expect(second.reachedStop).toBe(true);
    expect(reader.calls).toBe(1);
    expect(nextHeadMemo(memo, second)).toEqual({
      head: records[1].position,
      memo: { head: records[1].position, top: records[7].position },
    });
  });

  it('reports no head for a log without wanted records', async () => {
    const result = await scanBackward(backPages(log('sss')), {
      pageSize: 2,
      stopAt: null,
      positionOf: (r) => r.position,
      select: (r) => (r.wanted ? r.position : null),
    });
    expect(nextHeadMemo(null, result).head).toBeNull();
    expect(
      nextHeadMemo(
        null,
        await scanBackward<Rec, GlobalPosition>(backPages([]), {
          pageSize: 2,
          stopAt: null,
          positionOf: (r) => r.position,
          select: () => null,
        }),
      ),
    ).toEqual({ head: null, memo: null });
  });
});

describe('skip cache', () => {
  it('resumes a scan where the last one from the same place found nothing more', () => {
    const cache = new SkipCache(2);
    expect(cache.resume(at(5), 'types')).toEqual(at(5));
    cache.remember(at(5), at(90), 'types');
    expect(cache.resume(at(5), 'types')).toEqual(at(90));
    expect(cache.resume(at(5), 'other')).toEqual(at(5));
    cache.remember(null, at(40), '*');
    expect(cache.resume(null, '*')).toEqual(at(40));
  });

  it('ignores a range that does not move forward and forgets the oldest entries first', () => {
    const cache = new SkipCache(2);
    cache.remember(at(9), at(9), '*');
    expect(cache.resume(at(9), '*')).toEqual(at(9));
    cache.remember(at(1), at(2), '*');
    cache.remember(at(3), at(4), '*');
    cache.resume(at(1), '*');
    cache.remember(at(5), at(6), '*');
    expect(cache.resume(at(3), '*')).toEqual(at(3));
    expect(cache.resume(at(1), '*')).toEqual(at(2));
    expect(cache.resume(at(5), '*')).toEqual(at(6));
  });
});
