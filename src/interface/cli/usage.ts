import { CommandSpec } from './command-spec';
import { DATA_USAGE } from './data/data-commands';

export const usageText = (commands: Readonly<Record<string, CommandSpec>>): string => {
  const entries = Object.entries(commands).flatMap(([name, spec]) => [
    `  ${[name, spec.usage].filter((part) => part !== '').join(' ')}`,
    `      ${spec.summary}`,
  ]);
  return [
    'Usage: npm run --silent cli -- <command> [arguments]',
    '',
    'Commands (they call the running service at SERVICE_URL with the operator token):',
    ...entries,
    '',
    ...DATA_USAGE,
    '',
    'Environment:',
    '  SERVICE_URL     base URL of the service (default http://localhost:3000)',
    '  OPERATOR_TOKEN  your operator token (op_...); when set, it is used',
    '  ADMIN_TOKEN     otherwise: the break-glass owner token; when unset, read from $DATA_DIR/admin-token',
    '  DATA_DIR        service data directory (default ./data)',
    '',
    'Prints the response as one JSON line on stdout (`audit wallet` streams JSON',
    'lines or CSV; `projections rebuild` prints progress, then the result). Exit codes: 0 success,',
    '1 error response (body on stderr), 2 usage or configuration error,',
    '3 service unreachable (for data commands: the store cannot be opened).',
    '',
  ].join('\n');
};
