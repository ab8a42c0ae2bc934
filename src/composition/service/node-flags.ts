/**
 * V8 flags the service process is started with: `npm start`, the Docker image and the bench pass them to `node`
 * (they cannot be set once the process runs). Without V8's memory reducer, a lull of half a minute no longer ends
 * in garbage collections that throw away the request path's optimised code (decision 0175).
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--no-memory-reducer'];

/** V8 reads `_` and `-` alike in a flag's name. */
const spelledOut = (flag: string): string => flag.replace(/_/g, '-');

/**
 * The flags of SERVICE_NODE_FLAGS this process was started without (`process.execArgv`): absent, or turned back on
 * by a later `--memory-reducer` (V8 takes the last of the two).
 */
export function missingServiceNodeFlags(execArgv: readonly string[]): string[] {
  const given = execArgv.map(spelledOut);
  return SERVICE_NODE_FLAGS.filter((flag) => {
    const on = `--${flag.slice('--no-'.length)}`;
    return given.lastIndexOf(flag) <= given.lastIndexOf(on);
  });
}

/** The start-up warning for a process started without them, or null. */
export function nodeFlagsWarning(execArgv: readonly string[]): string | null {
  const missing = missingServiceNodeFlags(execArgv);
  if (missing.length === 0) return null;
  return (
    `partner service: node was started without ${missing.join(' ')}; after a lull without requests ` +
    `the first requests run unoptimised code again and cost up to twice the CPU ` +
    `(start it as \`node ${SERVICE_NODE_FLAGS.join(' ')} dist/main.js\`, docs/operations.md "Node flags")`
  );
}
