/**
 * What tracing costs when it is off (no OTEL_* exporter variable): the code paths a topup goes
 * through with the tracing hooks present but off, against the same work without them (as before
 * tracing existed), alternating in rounds so that both see the same machine state. A micro-measure,
 * not a test. Off, the SDK is never loaded (start-tracing.ts requires it only when configured):
 * `require.cache` is checked at the end to show that no @opentelemetry module was loaded.
 *   npx tsx bench/tracing-off-cost.ts [calls per round=200000] [rounds=10]
 */
import '../src/infrastructure/tracing/start-tracing';
import { metadata } from '../src/application/shared/event-envelope';
import { traced } from '../src/infrastructure/tracing/tracing';

const CALLS = Number(process.argv[2] ?? 200_000);
const ROUNDS = Number(process.argv[3] ?? 10);

for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name];

const work = (): Promise<number> => Promise.resolve(1);
const fields = {
  partnerId: 'p_1',
  environment: 'sandbox' as const,
  correlationId: 'ord_1',
  causationId: 'req_1',
  actor: { type: 'partner_key' as const, id: 'key_1' },
  at: new Date('2026-01-15T09:30:00.000Z'),
};

/** The metadata of an event as built before tracing (no trace context lookup). */
const plainMetadata = (f: typeof fields) => ({
  partnerId: f.partnerId,
  environment: f.environment,
  correlationId: f.correlationId,
  causationId: f.causationId,
  actor: f.actor,
  occurredAt: f.at.toISOString(),
});

const ways: [string, () => Promise<unknown>][] = [
  [
    'absent: work() + event metadata',
    async () => {
      plainMetadata(fields);
      return work();
    },
  ],
  [
    'present, off: traced(work) + event metadata with trace lookup',
    async () => {
      metadata(fields);
      return traced('event append', work, () => ({ attributes: { 'event.count': 1 } }));
    },
  ],
];

async function main(): Promise<void> {
  const nsPerCall = new Map<string, number[]>(ways.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const [name, call] of round % 2 === 0 ? ways : [...ways].reverse()) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < CALLS; i++) await call();
      const ns = Number(process.hrtime.bigint() - started) / CALLS;
      if (round > 0) nsPerCall.get(name)?.push(ns); // round 0 warms up
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const results = ways.map(([name]) => ({ name, median: median(nsPerCall.get(name) ?? []) }));
  for (const result of results)
    console.log(`${result.name}: ${result.median.toFixed(1)} ns per call (median of ${ROUNDS} rounds)`);
  console.log(`difference: ${(results[1].median - results[0].median).toFixed(1)} ns per call`);
  const loaded = Object.keys(require.cache).filter(
    (path) => path.includes('@opentelemetry') || path.includes('@fastify/otel'),
  );
  console.log(`OpenTelemetry modules loaded: ${loaded.length}`);
}

void main();
