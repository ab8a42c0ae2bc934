import { runCli } from '../../interface/cli/run-cli';

export function runOperatorCli(argv: readonly string[]): void {
  runCli(argv, async () => (await import('./data-move')).openDataMove);
}
