/**
 * What validating a good topup body costs, class-validator's path against the compiled checks:
 * rounds of N calls each, the two paths alternating, µs per call for each (median and range of
 * the rounds). A micro-measure of one function in this process, not a timed test.
 *   npx tsx bench/validation-cost.ts [calls per round=20000] [rounds=10]
 */
import 'reflect-metadata';
import { ServiceError } from '../src/application/shared/service-error';
import { TopupDto } from '../src/interface/shared/requests/topup.dto';
import { RequestSubject, classValidated, validatedRequest } from '../src/interface/shared/requests/validated-request';
import { findUnsafeText } from '../src/interface/shared/safe-text';
import { median } from './lib/interleaved-pairs';

const CALLS = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 10);
const BODY: RequestSubject = { root: 'body', noun: 'request' };
const GOOD_TOPUP = { operator_id: 101, phone: '+919876540001', amount: 100, reference: 'inv-2026-0001' };

/** The request validation before the compiled checks: the same steps, class-validator deciding. */
function classValidatorPath(value: object): object {
  const problem = findUnsafeText(value, '', BODY.root);
  if (problem) throw new ServiceError('validation_failed', problem);
  return classValidated(TopupDto, value, BODY);
}

const compiledPath = (value: object): object => validatedRequest(TopupDto, value, BODY);

/** µs per call over one round; each call gets a fresh body, as each request parses its own. */
function microsPerCall(validate: (value: object) => object): number {
  const bodies = Array.from({ length: CALLS }, () => ({ ...GOOD_TOPUP }));
  const start = process.hrtime.bigint();
  for (const body of bodies) validate(body);
  return Number(process.hrtime.bigint() - start) / 1000 / CALLS;
}

const paths = { 'class-validator': classValidatorPath, compiled: compiledPath };
const rounds: Record<keyof typeof paths, number[]> = { 'class-validator': [], compiled: [] };
// A warm-up round each, not counted: the first calls compile the checks and warm the JIT.
for (const validate of Object.values(paths)) microsPerCall(validate);
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, validate] of Object.entries(paths) as [keyof typeof paths, (value: object) => object][]) {
    rounds[name].push(microsPerCall(validate));
  }
}
console.log(`good topup body, ${ROUNDS} rounds of ${CALLS} calls, alternating (node ${process.version})`);
for (const [name, values] of Object.entries(rounds)) {
  const fixed = (value: number): string => value.toFixed(2);
  console.log(
    `${name.padEnd(16)} ${fixed(median(values))} µs/call (rounds ${fixed(Math.min(...values))} to ${fixed(Math.max(...values))})`,
  );
}
