/**
 * What writing a typical topup answer costs: JSON.stringify against the serializer compiled from
 * the published TopupOrder schema (the one POST /topup's answers are written with), alternating in
 * rounds so that both see the same machine state. A micro-measure, not a test.
 *   npx tsx bench/serialize-cost.ts [calls per round=200000] [rounds=10]
 */
import { TopupOrderResource } from '../src/interface/shared/order-resources';
import { compiledSerializerOf } from '../src/interface/http/openapi/compiled-serializer';
import { TopupOrderDto } from '../src/interface/http/partner/dto/order-response.dto';

const CALLS = Number(process.argv[2] ?? 200_000);
const ROUNDS = Number(process.argv[3] ?? 10);

/** Shaped as orderResource writes it (interface/shared/order-resources.ts). */
const answer: TopupOrderResource = {
  order_id: 'ord_4f1c2a9b7d3e6f8a0b1c2d3e',
  status: 'PENDING',
  operator_id: 101,
  phone: '+919876540001',
  amount_local: '100.0000',
  currency: 'INR',
  balance_after: '900.00',
  reference: 'invoice-2026-0142',
  created_at: '2026-01-15T09:30:00.000Z',
};

const compiled = compiledSerializerOf(TopupOrderDto);
const ways: [string, (value: TopupOrderResource) => string][] = [
  ['JSON.stringify', (value) => JSON.stringify(value)],
  ['compiled (fast-json-stringify)', compiled],
];

/** Microseconds per call over one round; the written length is kept so the calls cannot be optimised away. */
function round(write: (value: TopupOrderResource) => string): { microseconds: number; length: number } {
  let length = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) length += write(answer).length;
  const elapsed = Number(process.hrtime.bigint() - started);
  return { microseconds: elapsed / 1000 / CALLS, length };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const sameValues =
  JSON.stringify(Object.entries(JSON.parse(compiled(answer)) as object).sort()) ===
  JSON.stringify(Object.entries(answer).sort());
if (!sameValues) throw new Error('the compiled serializer does not write the same answer');

for (const [, write] of ways) round(write); // warm-up
const times = new Map<string, number[]>(ways.map(([name]) => [name, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, write] of r % 2 === 0 ? ways : [...ways].reverse())
    times.get(name)?.push(round(write).microseconds);
}
console.log(
  `${String(ROUNDS)} rounds of ${String(CALLS)} calls, alternating; ${String(compiled(answer).length)} bytes`,
);
for (const [name, values] of times) {
  console.log(
    `${name.padEnd(32)} median ${median(values).toFixed(3)} µs/call  (min ${Math.min(...values).toFixed(3)}, max ${Math.max(...values).toFixed(3)})`,
  );
}
