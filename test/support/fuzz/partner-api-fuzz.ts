import { PARTNER_ERROR_CODES } from '../../../src/interface/http/partner/dto/error-response.dto';
import { Money } from '../../../src/domain/money/money';

/**
 * A fuzz run of every partner operation, generated from the served OpenAPI document: a valid
 * request with one part made hostile (a field, an unknown field, the raw body, the content type,
 * the query string, a path parameter, a header). Every answer must be below 500, within the
 * request timeout, in the Error shape when it is a refusal; and at the end, the partner's orders
 * are exactly those of the 200 answers, and the balance is what they explain. Deterministic for
 * a seed: a finding prints its seed and case number, and the same seed replays the same requests.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  examples?: Json[];
  enum?: Json[];
  $ref?: string;
  items?: Schema;
};

interface Operation {
  method: string;
  path: string;
  parameters: { name: string; in: 'query' | 'path' | 'header'; schema: Schema }[];
  body: Schema | null;
}

export interface FuzzCase {
  index: number;
  operation: string;
  mutation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface FuzzFinding {
  seed: number;
  index: number;
  operation: string;
  mutation: string;
  problem: string;
  status?: number;
  answer?: string;
}

export interface FuzzTarget {
  baseUrl: string;
  adminToken: string;
  /** Any answer slower than this is a finding (the service's REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
}

/** A small deterministic generator (mulberry32): the same seed gives the same run everywhere. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Values that replace one field; raw literals (JSON a serializer would never write) are marked. */
const HOSTILE_VALUES: { label: string; json?: Json; raw?: string }[] = [
  { label: 'null', json: null },
  { label: 'true', json: true },
  { label: 'an empty array', json: [] },
  { label: 'an object', json: { nested: { deeper: 1 } } },
  { label: 'an empty string', json: '' },
  { label: 'spaces', json: '   ' },
  { label: 'a NUL byte', json: 'a\u0000b' },
  { label: 'control characters', json: '\u0001\u001f\u007f\r\n' },
  { label: '10,000 characters', json: 'x'.repeat(10_000) },
  { label: 'emoji', json: '💸👨‍👩‍👧' },
  { label: 'right-to-left override', json: '\u202Egnp.exe' },
  { label: 'SQL', json: "' OR 1=1; --" },
  { label: 'markup', json: '<script>alert(1)</script>' },
  { label: 'zero', json: 0 },
  { label: 'minus one', json: -1 },
  { label: 'a fraction', json: 1.5 },
  { label: 'a huge number', json: 1e308 },
  { label: 'a numeric string', json: '100' },
  { label: 'an exponent literal', raw: '1e2' },
  { label: 'an integer beyond 2^53', raw: '99999999999999999999' },
  { label: 'a literal a double rounds', raw: '199.999999999999999' },
  { label: 'a negative zero', raw: '-0' },
  { label: 'a tiny exponent', raw: '1e-400' },
  { label: 'a __proto__ object', raw: '{"__proto__":{"admin":true}}' },
  { label: 'a constructor.prototype object', raw: '{"constructor":{"prototype":{"admin":true}}}' },
  { label: 'deep nesting', raw: `${'['.repeat(200)}${']'.repeat(200)}` },
];

const RAW_BODIES = [
  '',
  '{',
  '[]',
  'null',
  '"text"',
  '{"a":1}{"b":2}',
  '{"amount":}',
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  '\ufeff{}',
  '{"a":"\\ud800"}',
  'x'.repeat(70_000),
];
const CONTENT_TYPES = [
  'text/plain',
  'application/json; charset=latin1',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  '',
];
const QUERY_SUFFIXES = [
  'limit=1&limit=2',
  'limit=-1',
  'limit=1e3',
  'limit=abc',
  'limit[]=1',
  'status=pending',
  'status=%00',
  'reference=%ZZ',
  'reference=%F0%9F%92%B8',
  `reference=${'r'.repeat(5_000)}`,
  'cursor=not-a-cursor',
  'created_from=2026-13-45',
  'created_to=yesterday',
  'phone=%2B91%00',
  'category=ELECTRICITY&category=WATER',
  '__proto__[x]=1',
  'unknown=1',
];
const PATH_IDS = [
  '..%2F..%2Fbalance',
  '%00',
  'a'.repeat(3_000),
  '💸',
  'ord_000000000000000000000000',
  "ord_' OR '1'='1",
  '%E0%A4%A',
  '.',
  'whd_x',
];
const IDEMPOTENCY_KEYS = [null, 'short', 'k'.repeat(300), 'key with spaces', 'clé-idempotence-ÿ', 'tab\tkey-00000'];

function resolve(doc: Record<string, any>, schema: Schema | undefined): Schema | null {
  if (!schema) return null;
  if (schema.$ref) return doc.components.schemas[schema.$ref.split('/').pop()!] as Schema;
  return schema;
}

/**
 * The partner operations as the document describes them. The events stream is left out: a valid
 * request is answered with a stream that stays open (its refusals are tested in events-feed.spec.ts).
 */
export function operationsOf(doc: Record<string, any>): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, operation] of Object.entries<Record<string, any>>(methods)) {
      if (operation.responses?.['200']?.content?.['text/event-stream']) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters ?? []).map((parameter: Record<string, any>) => ({
          name: parameter.name,
          in: parameter.in,
          schema: parameter.schema,
        })),
        body: resolve(doc, operation.requestBody?.content?.['application/json']?.schema),
      });
    }
  }
  return operations;
}

/** The valid body the document's examples make, with the sandbox values that succeed. */
function validBody(schema: Schema, operationPath: string): Record<string, Json> {
  const body: Record<string, Json> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const example = property.examples?.[0] ?? property.enum?.[0];
    if (example !== undefined) body[name] = example;
  }
  if (operationPath.endsWith('/topup')) Object.assign(body, { operator_id: 101, phone: '+919876540001', amount: 10 });
  if (operationPath.endsWith('/pay-bill') || operationPath.endsWith('/bill-info')) {
    Object.assign(body, { biller_id: 1005, consumer_number: '1234560001' });
    delete body.params;
  }
  if (operationPath.endsWith('/pay-bill')) body.amount = 500;
  if (operationPath.endsWith('/settings')) {
    for (const name of Object.keys(body)) delete body[name];
    body.rate_limit_per_minute = 120;
  }
  return body;
}

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)];

/** The requests of a run: `count` cases for `seed`, spread over every operation. */
export function fuzzCases(doc: Record<string, any>, seed: number, count: number): FuzzCase[] {
  const next = random(seed);
  const operations = operationsOf(doc);
  const cases: FuzzCase[] = [];
  for (let index = 0; index < count; index++) {
    const operation = operations[index % operations.length];
    let path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === 'order_id' ? 'ord_000000000000000000000001' : 'whd_1',
    );
    const headers: Record<string, string> = {};
    const needsKey = operation.parameters.some((parameter) => parameter.name === 'Idempotency-Key');
    if (needsKey) headers['idempotency-key'] = `fuzz-${seed}-${index}`;
    let body: string | undefined;
    let valid: Record<string, Json> | null = null;
    if (operation.body) {
      valid = validBody(operation.body, operation.path);
      body = JSON.stringify(valid);
      headers['content-type'] = 'application/json';
    }
    const kinds = [
      'field',
      'unknown field',
      'missing field',
      'raw body',
      'content type',
      'query',
      'path',
      'idempotency key',
      'method',
    ] as const;
    let kind = pick(next, kinds);
    if ((kind === 'field' || kind === 'unknown field' || kind === 'missing field') && !valid) kind = 'query';
    if (kind === 'path' && !operation.path.includes('{')) kind = 'query';
    if (kind === 'idempotency key' && !needsKey) kind = 'raw body';
    // A GET carries no body (fetch refuses to send one): its hostile parts are the query and the path.
    if ((kind === 'raw body' || kind === 'content type') && operation.method === 'GET')
      kind = operation.path.includes('{') && next() < 0.5 ? 'path' : 'query';
    let mutation: string = kind;
    let method = operation.method;
    switch (kind) {
      case 'field':
      case 'unknown field': {
        const names = Object.keys(operation.body?.properties ?? {});
        const name =
          kind === 'unknown field'
            ? pick(next, ['extra', 'amount_local', 'partner_id', '__proto__', 'constructor'])
            : pick(next, names);
        const value = pick(next, HOSTILE_VALUES);
        mutation = `${kind} ${name} = ${value.label}`;
        const placeholder = '"\u0000fuzz\u0000"';
        const text = JSON.stringify({ ...valid, [name]: '\u0000fuzz\u0000' });
        body = text.replace(placeholder, value.raw ?? JSON.stringify(value.json));
        break;
      }
      case 'missing field': {
        const name = pick(next, Object.keys(valid ?? {}).length ? Object.keys(valid ?? {}) : ['none']);
        const { [name]: _removed, ...rest } = valid ?? {};
        mutation = `missing field ${name}`;
        body = JSON.stringify(rest);
        break;
      }
      case 'raw body': {
        body = pick(next, RAW_BODIES);
        headers['content-type'] = 'application/json';
        mutation = `raw body ${JSON.stringify(body.slice(0, 20))}${body.length > 20 ? `… (${body.length} characters)` : ''}`;
        break;
      }
      case 'content type': {
        const type = pick(next, CONTENT_TYPES);
        if (type) headers['content-type'] = type;
        else delete headers['content-type'];
        body ??= '{}';
        mutation = `content type ${JSON.stringify(type)}`;
        break;
      }
      case 'query': {
        const suffix = pick(next, QUERY_SUFFIXES);
        path = `${path}?${suffix}`;
        mutation = `query ${suffix.slice(0, 40)}`;
        break;
      }
      case 'path': {
        const id = pick(next, PATH_IDS);
        path = operation.path.replace(/\{(\w+)\}/g, () => id);
        mutation = `path id ${id.slice(0, 40)}`;
        break;
      }
      case 'idempotency key': {
        const key = pick(next, IDEMPOTENCY_KEYS);
        if (key === null) delete headers['idempotency-key'];
        else headers['idempotency-key'] = key;
        mutation = `idempotency key ${JSON.stringify(key?.slice(0, 20) ?? null)}`;
        break;
      }
      case 'method': {
        method = pick(
          next,
          ['DELETE', 'PUT', 'OPTIONS', 'PATCH', 'POST', 'GET'].filter((candidate) => candidate !== operation.method),
        );
        mutation = `method ${method}`;
        if (method === 'GET' || method === 'OPTIONS') body = undefined;
        break;
      }
    }
    cases.push({ index, operation: `${operation.method} ${operation.path}`, mutation, method, path, headers, body });
  }
  return cases;
}

async function call(
  target: FuzzTarget,
  method: string,
  path: string,
  token: string,
  headers: Record<string, string> = {},
  body?: string,
) {
  const started = Date.now();
  const response = await fetch(`${target.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...headers },
    body,
    signal: AbortSignal.timeout(target.requestTimeoutMs * 2),
  });
  const text = await response.text();
  return { status: response.status, text, headers: response.headers, ms: Date.now() - started };
}

const ERROR_CODES = new Set<string>(PARTNER_ERROR_CODES);

/** What is wrong with one answer, or null. */
function problemOf(answer: { status: number; text: string; ms: number }, target: FuzzTarget): string | null {
  if (answer.status >= 500) return `answered ${answer.status}`;
  if (answer.ms > target.requestTimeoutMs) return `answered after ${answer.ms} ms, beyond the request timeout`;
  if (answer.status < 400) return null;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return 'a refusal whose body is not JSON';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'a refusal whose body is not an object';
  const { error, detail, ...extra } = body as Record<string, unknown>;
  if (typeof error !== 'string' || !ERROR_CODES.has(error))
    return `a refusal with an unknown error code ${JSON.stringify(error)}`;
  if (!(typeof detail === 'string' || detail === null || detail === undefined))
    return 'a refusal whose detail is not a string';
  if (Object.keys(extra).length > 0)
    return `a refusal with fields outside the Error shape: ${Object.keys(extra).join(', ')}`;
  return null;
}

/**
 * Onboards a partner, runs the cases, and checks the money at the end. Returns the findings
 * (empty when the run is clean) and how many answers each status got.
 */
export async function runPartnerApiFuzz(
  target: FuzzTarget,
  seed: number,
  count: number,
): Promise<{ findings: FuzzFinding[]; statuses: Record<number, number> }> {
  const admin = (method: string, path: string, body?: unknown) =>
    call(
      target,
      method,
      `/v1/admin${path}`,
      target.adminToken,
      { 'content-type': 'application/json' },
      body === undefined ? undefined : JSON.stringify(body),
    );
  const created = JSON.parse((await admin('POST', '/partners', { name: `Fuzz ${seed}`, corridor: 'IN' })).text) as {
    partner_id: string;
    sandbox_api_key: string;
  };
  const key = created.sandbox_api_key;
  const relax = () =>
    admin('PATCH', `/partners/${created.partner_id}/settings`, {
      environment: 'sandbox',
      rate_limit: 100_000,
      ip_allowlist: [],
    });
  await relax();
  await admin('POST', `/partners/${created.partner_id}/wallet-credits`, {
    environment: 'sandbox',
    amount: '1000000.00',
    reference: 'fuzz money',
  });
  // A current bill, so that a valid pay-bill can be accepted.
  await call(
    target,
    'POST',
    '/v1/partner/bill-info',
    key,
    { 'content-type': 'application/json' },
    JSON.stringify({ biller_id: 1005, consumer_number: '1234560001' }),
  );
  const startBalance = JSON.parse((await call(target, 'GET', '/v1/partner/balance', key)).text).available as string;

  const doc = JSON.parse((await call(target, 'GET', '/v1/partner/openapi.json', key)).text) as Record<string, any>;
  const findings: FuzzFinding[] = [];
  const statuses: Record<number, number> = {};
  const acceptedOrders = new Set<string>();
  for (const fuzzCase of fuzzCases(doc, seed, count)) {
    let answer: { status: number; text: string; ms: number };
    try {
      answer = await call(target, fuzzCase.method, fuzzCase.path, key, fuzzCase.headers, fuzzCase.body);
    } catch (error) {
      findings.push({
        seed,
        index: fuzzCase.index,
        operation: fuzzCase.operation,
        mutation: fuzzCase.mutation,
        problem: `no answer: ${String(error)}`,
      });
      continue;
    }
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    const problem = problemOf(answer, target);
    if (problem)
      findings.push({
        seed,
        index: fuzzCase.index,
        operation: fuzzCase.operation,
        mutation: fuzzCase.mutation,
        problem,
        status: answer.status,
        answer: answer.text.slice(0, 300),
      });
    if (answer.status === 200 && /\/(topup|pay-bill)$/.test(fuzzCase.path.split('?')[0])) {
      const orderId = (JSON.parse(answer.text) as { order_id?: string }).order_id;
      if (orderId) acceptedOrders.add(orderId);
    }
    // A settings change the fuzz made (a lower rate limit, an allowlist) would starve the rest of the run.
    if (answer.status === 200 && fuzzCase.method === 'PATCH') await relax();
  }

  // No money moved by a refused request: every order is one a 200 answered, and the balance is what they explain.
  // The list is read from the orders read model, which shows a new order once its projector has passed it
  // (docs/decisions/0021-reads-right-after-a-topup.md), while the balance is read from the log: the two are
  // compared once the list shows every accepted order and an order's outcome is not changing in between.
  const deadline = Date.now() + 15_000;
  let snapshot = await moneySnapshot(target, key, startBalance);
  while (!snapshot.settled(acceptedOrders) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    snapshot = await moneySnapshot(target, key, startBalance);
  }
  for (const order of snapshot.orders)
    if (!acceptedOrders.has(order.order_id))
      findings.push({
        seed,
        index: -1,
        operation: 'orders',
        mutation: '-',
        problem: `order ${order.order_id} exists without a 200 answer`,
      });
  for (const orderId of acceptedOrders)
    if (!snapshot.orders.some((order) => order.order_id === orderId))
      findings.push({
        seed,
        index: -1,
        operation: 'orders',
        mutation: '-',
        problem: `order ${orderId} was answered 200 but the list never showed it`,
      });
  if (snapshot.endBalance !== snapshot.expected)
    findings.push({
      seed,
      index: -1,
      operation: 'balance',
      mutation: '-',
      problem: `balance is ${snapshot.endBalance} minor units; the accepted orders explain ${snapshot.expected}`,
    });
  return { findings, statuses };
}

interface ListedOrder {
  order_id: string;
  status: string;
  amount_local: string;
}

/** The partner's orders (every page of the list), the balance they explain, and the balance read after them. */
async function moneySnapshot(target: FuzzTarget, key: string, startBalance: string) {
  const orders: ListedOrder[] = [];
  let cursor: string | null = null;
  do {
    const page = JSON.parse(
      (
        await call(
          target,
          'GET',
          `/v1/partner/transactions?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          key,
        )
      ).text,
    ) as { transactions: ListedOrder[]; next_cursor: string | null };
    orders.push(...page.transactions);
    cursor = page.next_cursor;
  } while (cursor);
  const money = (text: string) => Money.parse(text.replace(/(\.\d\d)\d*$/, '$1'), 'INR');
  let expected = money(startBalance)?.minor ?? 0n;
  for (const order of orders) if (order.status !== 'FAILED') expected -= money(order.amount_local)?.minor ?? 0n;
  const endBalance = money(
    JSON.parse((await call(target, 'GET', '/v1/partner/balance', key)).text).available as string,
  )?.minor;
  return {
    orders,
    expected,
    endBalance,
    /** The list shows every accepted order and agrees with the balance read after it. */
    settled: (accepted: ReadonlySet<string>) =>
      endBalance === expected && [...accepted].every((orderId) => orders.some((order) => order.order_id === orderId)),
  };
}
