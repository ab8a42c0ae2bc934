import { Json, JsonObject, asArray, asObject, textOf } from '../../src/interface/shared/requests/json-schema';

/** Where the generated collection is kept, relative to the repository root. */
export const BRUNO_COLLECTION_FOLDER = 'clients/bruno';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const COLLECTION_FILE = (name: string): JsonObject => ({
  version: '1',
  name,
  type: 'collection',
  ignore: ['node_modules', '.git'],
});

/**
 * A Bruno collection (folder of .bru files) for every operation of an OpenAPI document: one
 * folder per tag, one request per operation named by its summary and filed by its operationId,
 * the base address and the API key as environment variables (`baseUrl`, `apiKey`, secret), a
 * fresh `Idempotency-Key` per send, and a request body built from the schema's examples.
 * Returns the files by path relative to the collection folder, in a stable order.
 */
export function brunoCollection(
  document: JsonObject,
  collectionName = textOf(asObject(document.info)?.title, 'API'),
): Map<string, string> {
  const files = new Map<string, string>();
  files.set('bruno.json', `${JSON.stringify(COLLECTION_FILE(collectionName), null, 2)}\n`);
  files.set('environments/Local.bru', environment('http://127.0.0.1:3000'));
  const sequence = new Map<string, number>();
  for (const [path, item] of Object.entries(asObject(document.paths) ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    for (const method of METHODS) {
      const operation = asObject(asObject(item)?.[method]);
      if (!operation) continue;
      const folder = safeName(textOf(asArray(operation.tags)[0], 'partner'));
      const seq = (sequence.get(folder) ?? 0) + 1;
      sequence.set(folder, seq);
      const fileName = safeName(textOf(operation.operationId, `${method} ${path}`));
      files.set(`${folder}/${fileName}.bru`, request(document, path, method, operation, seq));
    }
  }
  return new Map([...files.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

function environment(baseUrl: string): string {
  return ['vars {', `  baseUrl: ${baseUrl}`, '}', 'vars:secret [', '  apiKey', ']', ''].join('\n');
}

function request(document: JsonObject, path: string, method: string, operation: JsonObject, seq: number): string {
  const parameters = asArray(operation.parameters)
    .map((parameter) => deref(document, parameter))
    .filter((parameter): parameter is JsonObject => parameter !== null);
  const url = `{{baseUrl}}${path.replace(/\{([^}]+)\}/g, ':$1')}`;
  const bodySchema = asObject(
    asObject(asObject(deref(document, operation.requestBody)?.content)?.['application/json'])?.schema,
  );
  const blocks: string[] = [];
  blocks.push(
    block('meta', [
      `name: ${oneLine(textOf(operation.summary, textOf(operation.operationId, `${method} ${path}`)))}`,
      'type: http',
      `seq: ${seq}`,
    ]),
  );
  blocks.push(block(method, [`url: ${url}`, `body: ${bodySchema ? 'json' : 'none'}`, 'auth: bearer']));
  const query = parameters.filter((parameter) => parameter.in === 'query');
  if (query.length) {
    // Optional filters are listed switched off (~), so a send uses the service's defaults until one is switched on.
    blocks.push(
      block(
        'params:query',
        query.map(
          (parameter) =>
            `${parameter.required === true ? '' : '~'}${textOf(parameter.name)}: ` +
            exampleText(document, parameter.schema),
        ),
      ),
    );
  }
  const pathParameters = parameters.filter((parameter) => parameter.in === 'path');
  if (pathParameters.length)
    blocks.push(
      block(
        'params:path',
        pathParameters.map((parameter) => `${textOf(parameter.name)}: `),
      ),
    );
  const headers = parameters.filter((parameter) => parameter.in === 'header');
  if (headers.length) {
    blocks.push(
      block(
        'headers',
        headers.map(
          (parameter) =>
            `${textOf(parameter.name)}: ${/^idempotency-key$/i.test(textOf(parameter.name)) ? '{{$randomUUID}}' : ''}`,
        ),
      ),
    );
  }
  blocks.push(block('auth:bearer', ['token: {{apiKey}}']));
  if (bodySchema)
    blocks.push(block('body:json', JSON.stringify(example(document, bodySchema, 0), null, 2).split('\n')));
  const description = [operation.description, `${method.toUpperCase()} ${path}`].filter(
    (text): text is string => typeof text === 'string' && text !== '',
  );
  blocks.push(
    block(
      'docs',
      description.flatMap((text) => text.split('\n')),
    ),
  );
  return `${blocks.join('\n\n')}\n`;
}

function block(name: string, lines: string[]): string {
  return [`${name} {`, ...lines.map((line) => (line === '' ? '' : `  ${line}`)), '}'].join('\n');
}

/** A value for a schema: its first example, else its first enum value, else a placeholder of its type. */
function example(document: JsonObject, value: Json | undefined, depth: number): Json {
  const schema = deref(document, value);
  if (!schema || depth > 6) return null;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const first = asArray(schema[key]).find((alternative) => deref(document, alternative)?.type !== 'null');
    if (first !== undefined) return example(document, first, depth + 1);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((entry) => entry !== 'null') : schema.type;
  if (type === 'object' || schema.properties) {
    const required = new Set(asArray(schema.required).map(String));
    const properties = Object.entries(asObject(schema.properties) ?? {});
    // Required fields, and optional ones that carry an example of their own.
    const shown = properties.filter(([name, property]) => required.has(name) || hasExample(document, property));
    return Object.fromEntries(shown.map(([name, property]) => [name, example(document, property, depth + 1)]));
  }
  if (type === 'array') return [example(document, schema.items, depth + 1)];
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 0;
  if (type === 'boolean') return false;
  return '';
}

function hasExample(document: JsonObject, value: Json): boolean {
  const schema = deref(document, value);
  return Boolean(
    schema && ((Array.isArray(schema.examples) && schema.examples.length) || schema.example !== undefined),
  );
}

function exampleText(document: JsonObject, schema: Json | undefined): string {
  const value = example(document, schema, 0);
  return value === null || typeof value === 'object' ? '' : String(value);
}

function deref(document: JsonObject, value: Json | undefined): JsonObject | null {
  let current = asObject(value);
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 32; hops += 1) {
    let target: Json | undefined = document;
    for (const part of current.$ref.replace(/^#\//, '').split('/')) target = asObject(target)?.[part];
    current = asObject(target);
  }
  return current;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'request';
}
