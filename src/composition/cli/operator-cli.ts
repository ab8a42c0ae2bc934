import { runCli } from '../../interface/cli/run-cli';

/** The operator CLI process: its commands over HTTP, and the data commands over the configured store. */
export function runOperatorCli(argv: readonly string[]): void {
  runCli(argv, async () => (await import('./data-move')).openDataMove);
}
