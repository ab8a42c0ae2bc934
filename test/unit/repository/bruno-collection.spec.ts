import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brunoCollection, BRUNO_COLLECTION_FOLDER } from '../../../tools/openapi/bruno-collection';
import { OPENAPI_SNAPSHOT_FILE } from '../../../tools/openapi/canonical-json';

const ROOT = join(__dirname, '..', '..', '..');
const FOLDER = join(ROOT, BRUNO_COLLECTION_FOLDER);
const snapshot = JSON.parse(readFileSync(join(ROOT, OPENAPI_SNAPSHOT_FILE), 'utf8'));

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [relative(FOLDER, path)];
  });
}

describe('the Bruno collection (clients/bruno)', () => {
  it('is what the generator makes from the OpenAPI snapshot (regenerate with npm run collection:generate)', () => {
    const generated = brunoCollection(snapshot);
    const onDisk = filesUnder(FOLDER)
      .filter((path) => path !== 'README.md')
      .sort();
    expect(onDisk).toEqual([...generated.keys()].sort());
    for (const [path, content] of generated)
      expect({ path, content: readFileSync(join(FOLDER, path), 'utf8') }).toEqual({ path, content });
  });

  it('has a request for every operation of the snapshot, with the key from the environment', () => {
    const requests = filesUnder(FOLDER)
      .filter((path) => path.endsWith('.bru') && !path.startsWith('environments'))
      .map((path) => readFileSync(join(FOLDER, path), 'utf8'));
    const covered = new Set(
      requests.map((text) => {
        const [, method, url] = /^(get|post|put|patch|delete) \{\n {2}url: \{\{baseUrl\}\}(\S+)$/m.exec(text) ?? [];
        return `${method?.toUpperCase()} ${url?.replace(/:(\w+)/g, '{$1}')}`;
      }),
    );
    const operations = Object.entries(snapshot.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, item]) =>
        Object.keys(item)
          .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
          .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.length).toBeGreaterThan(10);
    expect(operations.filter((operation) => !covered.has(operation))).toEqual([]);
    expect(covered.size).toBe(operations.length);
    for (const text of requests) expect(text).toContain('auth:bearer {\n  token: {{apiKey}}\n}');
    const environment = readFileSync(join(FOLDER, 'environments', 'Local.bru'), 'utf8');
    expect(environment).toMatch(/^ {2}baseUrl: /m);
    expect(environment).toContain('vars:secret [\n  apiKey\n]');
    expect(existsSync(join(FOLDER, 'bruno.json'))).toBe(true);
  });

  it('sends a fresh Idempotency-Key with topup and pay-bill, and an example body a sandbox accepts', () => {
    const topup = readFileSync(join(FOLDER, 'orders', 'topup.bru'), 'utf8');
    expect(topup).toContain('Idempotency-Key: {{$randomUUID}}');
    const body = JSON.parse(/body:json \{\n([\s\S]*?)\n\}/.exec(topup)?.[1] ?? 'null');
    expect(body).toEqual({
      operator_id: expect.any(Number),
      phone: expect.any(String),
      amount: expect.any(Number),
      reference: expect.any(String),
      // The example of the dry-run flag: false, so a send places the order.
      validate_only: false,
    });
    expect(readFileSync(join(FOLDER, 'orders', 'payBill.bru'), 'utf8')).toContain('Idempotency-Key: {{$randomUUID}}');
  });
});
