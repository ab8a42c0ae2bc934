/**
 * npm run simulate -- --seed <n> --steps <n> [--seeds <count>] [--job-concurrency <n>] [--sequential] [--database-url <url>] [--verbose]
 *
 * Runs the seeded simulation of the money core (test/simulation/simulation.ts) on a database it
 * creates and drops on the PostgreSQL server at --database-url (default TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres). With --seeds, runs that many seeds from --seed on
 * (a long hunt) and stops at the first failure. A failure prints its seed, its step, what broke, the
 * steps that led there, and the command that replays it; the exit code is then 1.
 */
import { describeFailure } from './failure-report';
import { runSimulation } from './simulation';

interface Arguments {
  seed: number;
  steps: number;
  seeds: number;
  jobConcurrency: number;
  sequential: boolean;
  verbose: boolean;
}

function parseArguments(argv: string[]): Arguments {
  const parsed: Arguments = { seed: 1, steps: 200, seeds: 1, jobConcurrency: 1, sequential: false, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    const integer = (min: number): number => {
      const text = value();
      const number = Number(text);
      if (!/^\d+$/.test(text) || number < min || number > 2 ** 32 - 1)
        throw new Error(`${flag}: an integer from ${min} (got "${text}")`);
      return number;
    };
    if (flag === '--seed') parsed.seed = integer(0);
    else if (flag === '--steps') parsed.steps = integer(1);
    else if (flag === '--seeds') parsed.seeds = integer(1);
    else if (flag === '--job-concurrency') parsed.jobConcurrency = integer(1);
    else if (flag === '--database-url') process.env.TEST_DATABASE_URL = value();
    else if (flag === '--sequential') parsed.sequential = true;
    else if (flag === '--verbose') parsed.verbose = true;
    else
      throw new Error(
        `unknown argument ${flag}; usage: npm run simulate -- --seed <n> --steps <n> [--seeds <count>] [--job-concurrency <n>] [--sequential] [--database-url <url>] [--verbose]`,
      );
  }
  return parsed;
}

async function main(): Promise<number> {
  const args = parseArguments(process.argv.slice(2));
  const started = Date.now();
  for (let seed = args.seed; seed < args.seed + args.seeds; seed++) {
    const result = await runSimulation({
      seed,
      steps: args.steps,
      jobConcurrency: args.jobConcurrency,
      sequential: args.sequential,
      onStep: args.verbose ? (line) => console.log(`[seed ${seed}] ${line}`) : undefined,
    });
    if (result.failure) {
      console.error(describeFailure(result));
      return 1;
    }
    const actions = Object.entries(result.stats)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([action, count]) => `${action}=${count}`)
      .join(' ');
    console.log(`seed ${seed}: ok, ${args.steps} steps (${actions})`);
  }
  console.log(`${args.seeds} seed(s) passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
