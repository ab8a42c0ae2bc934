/** Live moves real money; sandbox uses mock providers. Each is a separate wallet of the same partner. */
export const ENVIRONMENTS = ['live', 'sandbox'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const isEnvironment = (value: unknown): value is Environment =>
  typeof value === 'string' && (ENVIRONMENTS as readonly string[]).includes(value);
