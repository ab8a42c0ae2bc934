const DAY_MS = 86_400_000;

export const lastSevenDays = (now: Date): string[] =>
  Array.from({ length: 7 }, (_, i) => new Date(now.getTime() - (6 - i) * DAY_MS).toISOString().slice(0, 10));
