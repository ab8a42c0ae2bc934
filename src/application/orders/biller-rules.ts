import { Corridor } from '../../domain/corridor/corridor';
import { BillerEntry, Catalog } from '../ports/catalog.port';
import { ServiceError } from '../shared/service-error';

export function billerOf(catalog: Catalog, billerId: number, corridor: Corridor): BillerEntry {
  const biller = catalog.biller(billerId);
  if (!biller || !biller.active || biller.corridor !== corridor) {
    throw new ServiceError(
      'operator_not_found_or_wrong_corridor',
      `biller_id ${billerId} is not a biller of the ${corridor} corridor`,
    );
  }
  return biller;
}

const CONSUMER_NUMBER = /^[A-Za-z0-9][A-Za-z0-9 /-]{2,39}$/;

/** The generic shape first, then the biller's own format when the catalog knows it. */
export function checkConsumerNumber(value: string, biller: BillerEntry): string {
  const trimmed = value.trim();
  if (!CONSUMER_NUMBER.test(trimmed)) {
    throw new ServiceError('validation_failed', 'consumer_number: 3 to 40 letters, digits, spaces, dashes or slashes');
  }
  const format = biller.consumerNumber;
  if (format?.pattern && !new RegExp(format.pattern).test(trimmed)) {
    throw new ServiceError('validation_failed', `consumer_number: not a valid ${format.label} for ${biller.name}`);
  }
  return trimmed;
}

/** Keeps the params the biller asks for, refusing missing required ones and values of the wrong shape. */
export function checkBillerParams(biller: BillerEntry, params: Record<string, string>): Record<string, string> {
  const known = new Set(biller.params.map((param) => param.name));
  for (const name of Object.keys(params)) {
    if (!known.has(name))
      throw new ServiceError('validation_failed', `params.${name}: ${biller.name} takes no such parameter`);
  }
  const accepted: Record<string, string> = {};
  for (const param of biller.params) {
    const value = params[param.name];
    if (value === undefined) {
      if (param.required)
        throw new ServiceError(
          'validation_failed',
          `params.${param.name}: required by ${biller.name} (${param.label})`,
        );
      continue;
    }
    if (param.pattern && !new RegExp(param.pattern).test(value)) {
      throw new ServiceError(
        'validation_failed',
        `params.${param.name}: does not match the format ${biller.name} expects`,
      );
    }
    accepted[param.name] = value;
  }
  return accepted;
}
