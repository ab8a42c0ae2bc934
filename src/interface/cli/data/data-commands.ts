import { statSync } from 'node:fs';
import { join } from 'node:path';

/** The `data` commands open the configured store directly, unlike the others: they move a stopped service's history. */
export type DataCommand = { kind: 'export'; withoutSecrets: boolean } | { kind: 'import'; source: ImportSource };

export type ImportSource = { kind: 'history-file'; path: string } | { kind: 'pglite-folder'; path: string };

export type DataParseResult = DataCommand | { kind: 'help' } | { kind: 'usage-error'; message: string };

export const DATA_USAGE = [
  'Data commands (they open the configured store directly; run them while the service is stopped):',
  '  data export [--without-secrets]',
  '      Write every event, in global order, as JSON lines on stdout: `data export > log.jsonl`.',
  '      Each export is recorded in the back-office action log (who: the system user and host).',
  '      --without-secrets: leave out API key hashes, operator token hashes and sealed webhook',
  '      secrets; after importing such an export, keys are regenerated, operator tokens issued',
  '      (with ADMIN_TOKEN) and webhook secrets rotated before partners and operators get in.',
  '  data import <log.jsonl | pglite-folder>',
  '      Append an exported history, or the events of a PGlite data folder (DATA_DIR/pglite of',
  '      earlier releases), into the configured store, which must be empty; then rebuild the',
  '      read models. Prints the counts as one JSON line.',
  '  They read EVENT_STORE, DATABASE_URL, EVENTSTORE_CONNECTION_STRING and DATA_DIR as the',
  '  service does. Progress goes to stderr: a bar on a terminal, otherwise JSON lines',
  '  ({"progress": {...}}, at most one a second and a last one per step).',
];

const isHelp = (arg: string): boolean => arg === '--help' || arg === '-h';

export function parseDataCommand(argv: readonly string[]): DataParseResult {
  if (argv.length === 0 || argv.some(isHelp)) return argv.length === 0 ? { kind: 'usage-error', message: 'missing data command (export or import)' } : { kind: 'help' };
  const [verb, ...rest] = argv;
  if (verb === 'export') {
    const unexpected = rest.find((arg) => arg !== '--without-secrets');
    return unexpected === undefined
      ? { kind: 'export', withoutSecrets: rest.includes('--without-secrets') }
      : { kind: 'usage-error', message: `unexpected argument "${unexpected}"` };
  }
  if (verb === 'import') {
    if (rest.length === 0) return { kind: 'usage-error', message: 'missing <log.jsonl | pglite-folder>' };
    if (rest.length > 1) return { kind: 'usage-error', message: `unexpected argument "${rest[1]}"` };
    const source = importSource(rest[0]);
    return typeof source === 'string' ? { kind: 'usage-error', message: source } : { kind: 'import', source };
  }
  return { kind: 'usage-error', message: `unknown command "data ${verb}"` };
}

/** A file is an export; a folder is a PGlite data folder, or a data directory that holds one (`pglite/`). */
function importSource(path: string): ImportSource | string {
  const stat = statOf(path);
  if (!stat) return `${path}: no such file or folder`;
  if (stat.isFile()) return { kind: 'history-file', path };
  if (!stat.isDirectory()) return `${path} is neither a file nor a folder`;
  if (statOf(join(path, 'PG_VERSION'))?.isFile()) return { kind: 'pglite-folder', path };
  if (statOf(join(path, 'pglite', 'PG_VERSION'))?.isFile()) return { kind: 'pglite-folder', path: join(path, 'pglite') };
  return `${path} is a folder but not a PGlite data folder (no PG_VERSION in it or in ${join(path, 'pglite')})`;
}

const statOf = (path: string) => {
  try {
    return statSync(path);
  } catch {
    return null;
  }
};
