/**
 * Lists the changes from one OpenAPI document to another that can break a partner's integration.
 *
 *   npm run --silent openapi:breaking -- <before.json> <after.json>
 *   git show main:clients/typescript/openapi.json > /tmp/before.json
 *   npm run --silent openapi:breaking -- /tmp/before.json clients/typescript/openapi.json
 *
 * Exit status 0 when there is none, 1 when there are (one per line on stdout), 2 on bad arguments.
 */
import { readFileSync } from 'node:fs';
import { breakingChanges } from './breaking-changes';

const [beforeFile, afterFile] = process.argv.slice(2);
if (!beforeFile || !afterFile) {
  process.stderr.write('usage: npm run --silent openapi:breaking -- <before.json> <after.json>\n');
  process.exit(2);
}
const read = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const changes = breakingChanges(read(beforeFile), read(afterFile));
for (const change of changes) process.stdout.write(`${change}\n`);
process.stderr.write(changes.length ? `${changes.length} breaking change(s)\n` : 'no breaking change\n');
process.exit(changes.length ? 1 : 0);
