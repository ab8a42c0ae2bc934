const DAY_MS = 86_400_000;

/** The last 7 UTC days, oldest first, today last (YYYY-MM-DD). */
export const lastSevenDays = (now: Date): string[] =>
  Array.from({ length: 7 }, (_, i) => new Date(now.getTime() - (6 - i) * DAY_MS).toISOString().slice(0, 10));
