import { SimulationResult } from './simulation';

/** A failing seed: what broke, the steps that led there, and the command that replays it. */
export function describeFailure(result: SimulationResult): string {
  const failure = result.failure;
  if (!failure) return `seed ${result.seed}: ok`;
  return [
    `seed ${result.seed} FAILED at step ${failure.step} (${failure.action}):`,
    ...failure.problems.map((problem) => `  ${problem}`),
    'steps before it:',
    ...result.trace.slice(-25).map((line) => `  ${line}`),
    `replay: npm run simulate -- --seed ${result.seed} --steps ${Math.min(failure.step, result.steps)}${result.sequential ? ' --sequential' : ''}${result.jobConcurrency > 1 ? ` --job-concurrency ${result.jobConcurrency} (jobs ran side by side: the replay may take another path)` : ''}`,
  ].join('\n');
}
