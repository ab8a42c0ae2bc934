import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPENAPI_SNAPSHOT_FILE } from '../../../tools/openapi/canonical-json';

const ROOT = join(__dirname, '..', '..', '..');

describe('the generated TypeScript client (clients/typescript/src/schema.ts)', () => {
  it('is what openapi-typescript makes from the checked-in snapshot (regenerate with npm run client:generate)', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'client-schema-'));
    try {
      const output = join(scratch, 'schema.ts');
      execFileSync(
        process.execPath,
        [
          join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'),
          join(ROOT, OPENAPI_SNAPSHOT_FILE),
          '--output',
          output,
        ],
        {
          cwd: ROOT,
          stdio: 'pipe',
        },
      );
      const checkedIn = readFileSync(join(ROOT, 'clients', 'typescript', 'src', 'schema.ts'), 'utf8');
      expect(readFileSync(output, 'utf8') === checkedIn).toBe(true);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 30_000);
});
