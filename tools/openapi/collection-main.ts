/**
 * Writes the Bruno collection of the partner API (clients/bruno) from the OpenAPI snapshot,
 * replacing the generated files; open the folder in Bruno and pick the Local environment.
 *
 *   npm run collection:generate
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { brunoCollection, BRUNO_COLLECTION_FOLDER } from './bruno-collection';
import { OPENAPI_SNAPSHOT_FILE } from './canonical-json';
import { JsonObject } from '../../src/interface/shared/requests/json-schema';

const root = join(__dirname, '..', '..');
const folder = join(root, BRUNO_COLLECTION_FOLDER);
const files = brunoCollection(JSON.parse(readFileSync(join(root, OPENAPI_SNAPSHOT_FILE), 'utf8')) as JsonObject);
// Everything but the README is generated: start from an empty folder so a removed operation leaves no file behind.
const readme = readFileSync(join(folder, 'README.md'), 'utf8');
rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });
writeFileSync(join(folder, 'README.md'), readme);
for (const [path, content] of files) {
  mkdirSync(dirname(join(folder, path)), { recursive: true });
  writeFileSync(join(folder, path), content);
}
process.stdout.write(`wrote ${files.size} files to ${BRUNO_COLLECTION_FOLDER}\n`);
