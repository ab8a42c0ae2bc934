import { GlobalPosition, RecordedEvent } from '../../../../src/application/ports/event-store.port';
import { SharedLogReads } from '../../../../src/infrastructure/projections/shared-log-reads';

const at = (n: number): GlobalPosition => ({ commit: BigInt(n), prepare: BigInt(n) });
const event = (n: number) => ({ eventId: `e${n}`, position: at(n) }) as unknown as RecordedEvent;

/** A log whose reads are counted, and which grows when the test appends. */
function countedLog() {
  const events = [event(1), event(2)];
  const log = {
    reads: 0,
    append: (n: number) => events.push(event(n)),
    readAll: async (after: GlobalPosition | null) => {
      log.reads += 1;
      return events.filter((e) => after === null || e.position.commit > after.commit);
    },
  };
  return log;
}

describe('SharedLogReads, the page both projector groups read', () => {
  it('answers the second read of the same page from the first, once', async () => {
    const log = countedLog();
    const reads = new SharedLogReads(log);
    const first = await reads.readAll(null, { maxCount: 500 });
    log.append(3);
    const second = await reads.readAll(null, { maxCount: 500 });
    expect(log.reads).toBe(1);
    expect(second).toEqual(first);
    const third = await reads.readAll(null, { maxCount: 500 });
    expect(log.reads).toBe(2);
    expect(third.map((e) => e.eventId)).toEqual(['e1', 'e2', 'e3']);
  });

  it('reads afresh from another position, or with another page size', async () => {
    const log = countedLog();
    const reads = new SharedLogReads(log);
    await reads.readAll(null, { maxCount: 500 });
    expect((await reads.readAll(at(1), { maxCount: 500 })).map((e) => e.eventId)).toEqual(['e2']);
    await reads.readAll(at(1), { maxCount: 100 });
    expect(log.reads).toBe(3);
  });

  it('never shares a read filtered by event type', async () => {
    const log = countedLog();
    const reads = new SharedLogReads(log);
    const filtered = { maxCount: 500, eventTypes: new Set(['X']) };
    await reads.readAll(null, filtered);
    await reads.readAll(null, filtered);
    expect(log.reads).toBe(2);
  });
});
