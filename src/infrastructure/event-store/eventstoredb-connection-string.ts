interface ClientSettings {
  /** Interval of gRPC keep-alive pings, ms. 10 s is the client's recommended floor (it warns below). */
  keepAliveInterval: number;
  keepAliveTimeout: number;
  defaultDeadline: number;
}

const DEFAULT_CLIENT_SETTINGS: ClientSettings = {
  keepAliveInterval: 10_000,
  keepAliveTimeout: 10_000,
  defaultDeadline: 10_000,
};

const flatKey = (key: string): string => key.trim().toLowerCase().replace(/[_-]/g, '');

/** Adds our keep-alive and deadline settings where the string sets none, and forces `throwOnAppendFailure=true`, which the adapter relies on. */
export function withClientSettings(
  connectionString: string,
  settings: ClientSettings = DEFAULT_CLIENT_SETTINGS,
): string {
  const trimmed = connectionString.trim().replace(/\/+$/, '');
  const queryAt = trimmed.indexOf('?');
  const base = queryAt < 0 ? trimmed : trimmed.slice(0, queryAt);
  const pairs =
    queryAt < 0
      ? []
      : trimmed
          .slice(queryAt + 1)
          .split('&')
          .filter((pair) => pair.length > 0);
  const kept = pairs.filter((pair) => flatKey(pair.split('=')[0]) !== 'throwonappendfailure');
  const present = new Set(kept.map((pair) => flatKey(pair.split('=')[0])));
  const added = (Object.keys(settings) as (keyof ClientSettings)[])
    .filter((key) => !present.has(flatKey(key)))
    .map((key) => `${key}=${settings[key]}`);
  return `${base}?${[...kept, ...added, 'throwOnAppendFailure=true'].join('&')}`;
}
