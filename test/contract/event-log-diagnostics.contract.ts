import { v4 as uuid } from 'uuid';
import { EventLogDiagnostics } from '../../src/application/ports/event-log-diagnostics.port';
import { EventStore, UntypedEvent } from '../../src/application/ports/event-store.port';
import { Opened, newEvent } from './event-store-contract-support';

/** EventLogDiagnostics: the log's head and the counts between two places, below the same horizon as the reads. */
export function eventLogDiagnosticsContract(opened: Opened): void {
  describe('the head and counts of the log (EventLogDiagnostics)', () => {
    let store: EventStore<UntypedEvent>;
    let diagnostics: EventLogDiagnostics;

    beforeAll(() => {
      ({ store, diagnostics } = opened());
    });

    it('reports the position of the last appended event as the head', async () => {
      const result = await store.append(uuid(), [newEvent('A'), newEvent('B')], 'no_stream');
      expect(await diagnostics.headPosition()).toEqual(result.position);
    });

    it('reports the last appended event as the committed head once nothing is held back', async () => {
      const result = await store.append(uuid(), [newEvent('A')], 'no_stream');
      expect(await diagnostics.committedHeadPosition()).toEqual(result.position);
    });

    it('counts the events between two positions, and from the start', async () => {
      const before = await diagnostics.headPosition();
      const first = await store.append(uuid(), [newEvent('A'), newEvent('B')], 'no_stream');
      const second = await store.append(uuid(), [newEvent('C')], 'no_stream');
      expect(await diagnostics.countEvents(before, first.position)).toBe(2);
      expect(await diagnostics.countEvents(first.position, second.position)).toBe(1);
      expect(await diagnostics.countEvents(before, second.position)).toBe(3);
      expect(await diagnostics.countEvents(second.position, second.position)).toBe(0);
      expect(await diagnostics.countEvents(null, second.position)).toBeGreaterThanOrEqual(3);
      expect(await diagnostics.countEvents(before)).toBeGreaterThanOrEqual(3);
    });
  });
}
