import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { errorCode, errorMessage } from './error-fields';

export type TokenLookup = { kind: 'found'; token: string } | { kind: 'missing'; message: string };

const DEFAULT_DATA_DIR = './data';

/** ADMIN_TOKEN wins; otherwise the token file the service writes into its data directory. */
export const lookupAdminToken = (env: NodeJS.ProcessEnv, cwd: string): TokenLookup => {
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
      `error: no admin token: ADMIN_TOKEN is not set and ${problem}.\n` +
      'Set it in the environment, e.g. `export ADMIN_TOKEN=<token>`, or point DATA_DIR at the ' +
      "service's data directory (default ./data) so the CLI can read its admin-token file.\n",
  };
};
