import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { errorCode, errorMessage } from './error-fields';

export type TokenLookup = { kind: 'found'; token: string } | { kind: 'missing'; message: string };

const DEFAULT_DATA_DIR = './data';

/** OPERATOR_TOKEN wins; then the break-glass ADMIN_TOKEN, or the token file the service writes into DATA_DIR. */
export const lookupAdminToken = (env: NodeJS.ProcessEnv, cwd: string): TokenLookup => {
  const operatorToken = env.OPERATOR_TOKEN?.trim();
  if (operatorToken) return { kind: 'found', token: operatorToken };
  const fromEnv = env.ADMIN_TOKEN?.trim();
  if (fromEnv) return { kind: 'found', token: fromEnv };

  const file = resolve(cwd, env.DATA_DIR || DEFAULT_DATA_DIR, 'admin-token');
  let problem: string;
  try {
    const fromFile = readFileSync(file, 'utf8').trim();
    if (fromFile) return { kind: 'found', token: fromFile };
    problem = `${file} is empty`;
  } catch (error) {
    const code = errorCode(error);
    problem = code === 'ENOENT' ? `${file} does not exist` : `${file} cannot be read (${code ?? errorMessage(error)})`;
  }
  return {
    kind: 'missing',
    message:
      `error: no operator token: OPERATOR_TOKEN and ADMIN_TOKEN are not set and ${problem}.\n` +
      'Set your operator token in the environment, e.g. `export OPERATOR_TOKEN=op_...`, or the ' +
      "break-glass ADMIN_TOKEN, or point DATA_DIR at the service's data directory (default ./data) so the " +
      'CLI can read its admin-token file.\n',
  };
};
