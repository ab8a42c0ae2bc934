import { GlobalPosition, comparePositions } from '../../application/ports/event-store.port';
import { positionKey } from './eventstoredb-mapping';

/* $all also holds events not ours and client 6.x cannot filter it on the server; below what a reader has seen it is immutable. */

export type PageReader<T> = (from: GlobalPosition | 'start' | 'end', count: number) => Promise<T[]>;

interface ForwardWalk<T> {
  after: GlobalPosition | null;
  until?: GlobalPosition | null;
  pageSize: number;
  positionOf(record: T): GlobalPosition | null;
}

interface ForwardWalkResult {
  scannedTo: GlobalPosition | null;
  reachedEnd: boolean;
}

/** Visits records strictly after `after`, oldest first, until the visitor stops, a record lies after `until`, or the log ends. */
async function walkForward<T>(
  read: PageReader<T>,
  walk: ForwardWalk<T>,
  visit: (record: T) => 'continue' | 'stop',
): Promise<ForwardWalkResult> {
  let cursor = walk.after;
  for (;;) {
    const page = await read(cursor ?? 'start', walk.pageSize);
    const before = cursor;
    for (const record of page) {
      const position = walk.positionOf(record);
      if (!position || (cursor && comparePositions(position, cursor) <= 0)) continue;
      if (walk.until && comparePositions(position, walk.until) > 0) return { scannedTo: cursor, reachedEnd: false };
      cursor = position;
      if (visit(record) === 'stop') return { scannedTo: cursor, reachedEnd: false };
    }
    if (page.length < walk.pageSize) return { scannedTo: cursor, reachedEnd: true };
    if (samePosition(before, cursor)) throw new Error(`$all scan made no progress after ${positionKey(cursor)}`);
  }
}

interface ForwardScan<T, R> extends ForwardWalk<T> {
  maxCount: number;
  select(record: T): R | null;
}

interface ForwardScanResult<R> extends ForwardWalkResult {
  results: R[];
}

export async function scanForward<T, R>(read: PageReader<T>, scan: ForwardScan<T, R>): Promise<ForwardScanResult<R>> {
  const results: R[] = [];
  const walked = await walkForward(read, scan, (record) => {
    const selected = scan.select(record);
    if (selected !== null) results.push(selected);
    return results.length === scan.maxCount ? 'stop' : 'continue';
  });
  return { ...walked, results };
}

export async function countForward<T>(
  read: PageReader<T>,
  walk: ForwardWalk<T>,
  counts: (record: T) => boolean,
): Promise<number> {
  let total = 0;
  await walkForward(read, walk, (record) => {
    if (counts(record)) total++;
    return 'continue';
  });
  return total;
}

interface BackwardScan<T, R> {
  pageSize: number;
  stopAt: GlobalPosition | null;
  positionOf(record: T): GlobalPosition | null;
  select(record: T): R | null;
}

interface BackwardScanResult<R> {
  found: R | null;
  top: GlobalPosition | null;
  reachedStop: boolean;
}

export async function scanBackward<T, R>(
  read: PageReader<T>,
  scan: BackwardScan<T, R>,
): Promise<BackwardScanResult<R>> {
  let cursor: GlobalPosition | null = null;
  let top: GlobalPosition | null = null;
  for (;;) {
    const page = await read(cursor ?? 'end', scan.pageSize);
    const before = cursor;
    for (const record of page) {
      const position = scan.positionOf(record);
      if (!position || (cursor && comparePositions(position, cursor) >= 0)) continue;
      top ??= position;
      if (scan.stopAt && comparePositions(position, scan.stopAt) <= 0) return { found: null, top, reachedStop: true };
      cursor = position;
      const selected = scan.select(record);
      if (selected !== null) return { found: selected, top, reachedStop: false };
    }
    if (page.length < scan.pageSize) return { found: null, top, reachedStop: false };
    if (samePosition(before, cursor))
      throw new Error(`$all backward scan made no progress before ${positionKey(cursor)}`);
  }
}

const samePosition = (a: GlobalPosition | null, b: GlobalPosition | null): boolean =>
  a === null || b === null ? a === b : comparePositions(a, b) === 0;

/** Remembers per start and filter how far a scan found nothing, so the next read from there starts further on; bounded. */
export class SkipCache {
  private readonly entries = new Map<string, GlobalPosition>();

  constructor(private readonly capacity = 256) {}

  resume(after: GlobalPosition | null, filterKey: string): GlobalPosition | null {
    const key = `${filterKey}|${positionKey(after)}`;
    const skipTo = this.entries.get(key);
    if (!skipTo) return after;
    this.entries.delete(key);
    this.entries.set(key, skipTo);
    return skipTo;
  }

  remember(from: GlobalPosition | null, to: GlobalPosition, filterKey: string): void {
    if (from && comparePositions(to, from) <= 0) return;
    const key = `${filterKey}|${positionKey(from)}`;
    this.entries.delete(key);
    this.entries.set(key, to);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }
}

export interface HeadMemo {
  head: GlobalPosition | null;
  top: GlobalPosition;
}

export function nextHeadMemo(
  previous: HeadMemo | null,
  scan: BackwardScanResult<GlobalPosition>,
): { head: GlobalPosition | null; memo: HeadMemo | null } {
  const head = scan.found ?? (scan.reachedStop && previous ? previous.head : null);
  const top = scan.top ?? previous?.top ?? null;
  return { head, memo: top ? { head, top } : null };
}
