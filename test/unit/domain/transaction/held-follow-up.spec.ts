import { nextHeldLookUp } from '../../../../src/domain/transaction/held-follow-up';

const HELD = new Date('2026-01-01T10:00:00.000Z');
const at = (minutes: number) => new Date(HELD.getTime() + minutes * 60_000);
const HORIZON = at(48 * 60);

describe('the look-ups of a held order', () => {
  it('come at 1, 2, 4, 8, 15, 30 and 60 minutes after the hold, then every hour', () => {
    const asks: number[] = [];
    let now = HELD;
    for (let n = 0; n < 10; n++) {
      const next = nextHeldLookUp(HELD, now, HORIZON);
      if (!next) break;
      asks.push((next.getTime() - HELD.getTime()) / 60_000);
      now = next;
    }
    expect(asks).toEqual([1, 2, 4, 8, 15, 30, 60, 120, 180, 240]);
  });

  it('are the same whoever asks when: a run a little late or early picks the same next time', () => {
    expect(nextHeldLookUp(HELD, at(4.2), HORIZON)).toEqual(at(8));
    expect(nextHeldLookUp(HELD, at(7.9), HORIZON)).toEqual(at(8));
    expect(nextHeldLookUp(HELD, at(61), HORIZON)).toEqual(at(120));
    expect(nextHeldLookUp(HELD, at(119.99), HORIZON)).toEqual(at(120));
  });

  it('end at the horizon: the last look-up is at it, none after', () => {
    const horizon = at(90);
    expect(nextHeldLookUp(HELD, at(60), horizon)).toEqual(horizon);
    expect(nextHeldLookUp(HELD, horizon, horizon)).toBeNull();
    expect(nextHeldLookUp(HELD, at(100), horizon)).toBeNull();
  });

  it('never start for a provider without a horizon (the sandbox)', () => {
    expect(nextHeldLookUp(HELD, HELD, new Date(HELD.getTime() - 1))).toBeNull();
  });
});
