import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { STATUS_OF_ERROR } from '../../../../../src/interface/http/errors/status-of-error';
import { PARTNER_ERROR_CODES } from '../../../../../src/interface/http/partner/dto/error-response.dto';

const ROOT = join(__dirname, '..', '..', '..', '..', '..');
const reference = readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8');

interface Row {
  section: string;
  code: string;
  status: string;
  cause: string;
  action: string;
  retry: string;
}

/** The rows of the tables of docs/errors.md whose first cell is a code, with the section they are in. */
function rows(): Row[] {
  let section = '';
  const found: Row[] = [];
  for (const line of reference.split('\n')) {
    if (line.startsWith('## ')) section = line.slice(3).trim();
    const cells = /^\| `([a-z_]+)` \|/.test(line)
      ? line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim())
      : null;
    if (cells)
      found.push({
        section,
        code: cells[0].replace(/`/g, ''),
        status: cells[1],
        cause: cells[2],
        action: cells[3],
        retry: cells[4],
      });
  }
  return found;
}

/** Error codes written as literals in the service's sources (`error: '...'` bodies), outside tests and the CLI. */
function literalCodes(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return path.endsWith(join('interface', 'cli')) ? [] : literalCodes(path);
    if (!name.endsWith('.ts') || name.endsWith('.spec.ts')) return [];
    return [...readFileSync(path, 'utf8').matchAll(/\berror: '([a-z_]+)'/g)].map((match) => match[1]);
  });
}

describe('the error reference (docs/errors.md)', () => {
  it('describes every error code the service can answer, with its HTTP status', () => {
    const documented = rows();
    const codes = new Set([
      ...Object.keys(STATUS_OF_ERROR),
      ...PARTNER_ERROR_CODES,
      ...literalCodes(join(ROOT, 'src')),
    ]);
    expect([...codes].filter((code) => !documented.some((row) => row.code === code))).toEqual([]);
    for (const [code, status] of Object.entries(STATUS_OF_ERROR)) {
      const row = documented.find((entry) => entry.code === code);
      expect({ code, status: row?.status.split(' ')[0] }).toEqual({ code, status: String(status) });
    }
  });

  it('lists every code of the Error schema among the partner codes', () => {
    const partnerRows = rows().filter((row) => row.section === 'Partner codes');
    expect([...PARTNER_ERROR_CODES].filter((code) => !partnerRows.some((row) => row.code === code))).toEqual([]);
  });

  it('gives each code a cause, what to do, and whether retrying the same request is safe', () => {
    for (const row of rows()) {
      expect({ code: row.code, cause: row.cause.length > 10, action: row.action.length > 5 }).toEqual({
        code: row.code,
        cause: true,
        action: true,
      });
      expect({ code: row.code, retry: /^(Yes|No|Only)\b/.test(row.retry) }).toEqual({ code: row.code, retry: true });
    }
  });
});
