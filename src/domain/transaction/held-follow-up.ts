/**
 * When a held order is asked about again: at these times after its hold, then every hour, until its
 * provider's horizon (decision 0117). The times are fixed by the hold, so
 * every process and every retried run that schedules the next look-up picks the same one.
 */
const STEPS_AFTER_HOLD_MS = [1, 2, 4, 8, 15, 30, 60].map((minutes) => minutes * 60_000);
const HOURLY_MS = 60 * 60_000;

/** The next look-up of an order held at `heldAt`, or null once `horizon` is reached (the last look-up is at it). */
export function nextHeldLookUp(heldAt: Date, now: Date, horizon: Date): Date | null {
  if (now.getTime() >= horizon.getTime()) return null;
  const held = heldAt.getTime();
  const since = now.getTime() - held;
  const step = STEPS_AFTER_HOLD_MS.find((offset) => offset > since);
  const next = step !== undefined ? held + step : held + (Math.floor(since / HOURLY_MS) + 1) * HOURLY_MS;
  return new Date(Math.min(next, horizon.getTime()));
}
