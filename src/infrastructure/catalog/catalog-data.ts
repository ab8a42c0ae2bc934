import {
  BILLER_CATEGORIES,
  BillerCategory,
  BillerEntry,
  BillerParam,
  OperatorEntry,
  isBillerCategory,
} from '../../application/ports/catalog.port';
import { Corridor, CORRIDORS, currencyOf, isCorridor } from '../../domain/corridor/corridor';
import { Money } from '../../domain/money/money';
import { arrayAt, booleanAt, fail, objectAt, patternAt, positiveIntegerAt, stringAt } from './json-fields';

export interface CatalogSources {
  operators: unknown;
  billers: unknown;
  numberPlans: unknown;
}

interface PrefixOwner {
  corridor: Corridor;
  prefix: string;
  operatorId: number;
}

interface CatalogData {
  operators: OperatorEntry[];
  billers: BillerEntry[];
  prefixes: PrefixOwner[];
}

const API_ID = /^[A-Z][A-Z0-9_]*$/;
const AMOUNT = /^\d{1,13}\.\d{2}$/;
const PARAM_NAME = /^[a-z][a-z0-9_]*$/;
const PREFIX = /^\d{1,15}$/;

export const readCatalogData = (sources: CatalogSources): CatalogData => {
  const operators = arrayAt(sources.operators, 'operators.json').map((raw, i) =>
    readOperator(raw, `operators.json[${i}]`),
  );
  const billers = arrayAt(sources.billers, 'billers.json').map((raw, i) => readBiller(raw, `billers.json[${i}]`));
  assertUnique(
    [...operators, ...billers].map((entry) => entry.id),
    'id',
    'operators.json and billers.json',
  );
  assertUnique(
    operators.map((entry) => entry.apiOperatorId),
    'api_operator_id',
    'operators.json',
  );
  assertUnique(
    billers.map((entry) => entry.apiBillerId),
    'api_biller_id',
    'billers.json',
  );
  const prefixes = readNumberPlans(sources.numberPlans, operators);
  return { operators, billers, prefixes };
};

const readOperator = (raw: unknown, path: string): OperatorEntry => {
  const fields = ['id', 'api_operator_id', 'name', 'corridor', 'min_amount', 'max_amount', 'active'] as const;
  const record = objectAt(raw, path, fields);
  const corridor = corridorAt(record.corridor, `${path}.corridor`);
  const currency = currencyOf(corridor);
  const minAmount = stringAt(record.min_amount, `${path}.min_amount`, AMOUNT);
  const maxAmount = stringAt(record.max_amount, `${path}.max_amount`, AMOUNT);
  const min = Money.parse(minAmount, currency) ?? fail(`${path}.min_amount`, 'is not an amount');
  const max = Money.parse(maxAmount, currency) ?? fail(`${path}.max_amount`, 'is not an amount');
  if (!min.isPositive()) fail(`${path}.min_amount`, 'must be more than zero');
  if (!min.isLessThan(max)) fail(path, `min_amount ${minAmount} must be less than max_amount ${maxAmount}`);
  return Object.freeze({
    id: positiveIntegerAt(record.id, `${path}.id`),
    apiOperatorId: stringAt(record.api_operator_id, `${path}.api_operator_id`, API_ID),
    name: stringAt(record.name, `${path}.name`),
    category: 'MOBILE_PREPAID',
    corridor,
    currency,
    minAmount,
    maxAmount,
    active: booleanAt(record.active, `${path}.active`),
  });
};

const readBiller = (raw: unknown, path: string): BillerEntry => {
  const fields = [
    'id',
    'api_biller_id',
    'name',
    'category',
    'corridor',
    'bbps',
    'consumer_number',
    'params',
    'active',
  ] as const;
  const record = objectAt(raw, path, fields);
  const corridor = corridorAt(record.corridor, `${path}.corridor`);
  const bbps = booleanAt(record.bbps, `${path}.bbps`);
  // BBPS is India's bill payment system; a biller elsewhere cannot be on it.
  if (bbps && corridor !== 'IN') fail(`${path}.bbps`, `must be false outside the IN corridor, got true in ${corridor}`);
  const consumer = objectAt(record.consumer_number, `${path}.consumer_number`, ['label', 'pattern']);
  const params = arrayAt(record.params, `${path}.params`).map((param, i) => readParam(param, `${path}.params[${i}]`));
  assertUnique(
    params.map((param) => param.name),
    'param name',
    path,
  );
  if (params.some((param) => param.name === 'consumer_number')) {
    fail(`${path}.params`, 'must not repeat consumer_number, which every biller takes');
  }
  return Object.freeze({
    id: positiveIntegerAt(record.id, `${path}.id`),
    apiBillerId: stringAt(record.api_biller_id, `${path}.api_biller_id`, API_ID),
    name: stringAt(record.name, `${path}.name`),
    category: categoryAt(record.category, `${path}.category`),
    corridor,
    currency: currencyOf(corridor),
    bbps,
    consumerNumber: Object.freeze({
      label: stringAt(consumer.label, `${path}.consumer_number.label`),
      pattern: patternAt(consumer.pattern, `${path}.consumer_number.pattern`),
    }),
    params: Object.freeze(params) as BillerParam[],
    active: booleanAt(record.active, `${path}.active`),
  });
};

const readParam = (raw: unknown, path: string): BillerParam => {
  const record = objectAt(raw, path, ['name', 'label', 'required', 'pattern']);
  return Object.freeze({
    name: stringAt(record.name, `${path}.name`, PARAM_NAME),
    label: stringAt(record.label, `${path}.label`),
    required: booleanAt(record.required, `${path}.required`),
    pattern: patternAt(record.pattern, `${path}.pattern`),
  });
};

const readNumberPlans = (raw: unknown, operators: OperatorEntry[]): PrefixOwner[] => {
  const path = 'number-plans.json';
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail(path, 'must be an object');
  const owners: PrefixOwner[] = [];
  for (const [corridorKey, rows] of Object.entries(raw)) {
    const corridor = corridorAt(corridorKey, `${path} key "${corridorKey}"`);
    arrayAt(rows, `${path}.${corridor}`).forEach((row, i) => {
      const rowPath = `${path}.${corridor}[${i}]`;
      const record = objectAt(row, rowPath, ['operator_id', 'prefixes']);
      const operatorId = positiveIntegerAt(record.operator_id, `${rowPath}.operator_id`);
      const operator = operators.find((entry) => entry.id === operatorId);
      if (!operator) fail(`${rowPath}.operator_id`, `${operatorId} is not in operators.json`);
      else if (operator.corridor !== corridor) {
        fail(`${rowPath}.operator_id`, `${operatorId} is an operator of ${operator.corridor}, not ${corridor}`);
      }
      arrayAt(record.prefixes, `${rowPath}.prefixes`).forEach((prefix, j) => {
        owners.push({ corridor, prefix: stringAt(prefix, `${rowPath}.prefixes[${j}]`, PREFIX), operatorId });
      });
    });
    assertUnique(
      owners.filter((owner) => owner.corridor === corridor).map((owner) => owner.prefix),
      'prefix',
      `${path}.${corridor}`,
    );
  }
  return owners;
};

const corridorAt = (value: unknown, path: string): Corridor =>
  isCorridor(value)
    ? value
    : fail(path, `must be one of ${Object.keys(CORRIDORS).join(', ')}, got ${JSON.stringify(value)}`);

const categoryAt = (value: unknown, path: string): BillerCategory =>
  isBillerCategory(value)
    ? value
    : fail(path, `must be one of ${BILLER_CATEGORIES.join(', ')}, got ${JSON.stringify(value)}`);

const assertUnique = (values: readonly (string | number)[], what: string, where: string): void => {
  const seen = new Set<string | number>();
  for (const value of values) {
    if (seen.has(value)) fail(where, `${what} ${String(value)} appears more than once`);
    seen.add(value);
  }
};
