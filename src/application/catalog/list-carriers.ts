import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Corridor } from '../../domain/corridor/corridor';
import { Currency } from '../../domain/money/currency';
import { parseCorridorPhone } from '../../domain/phone/corridor-phone';
import { Caller } from '../auth/caller';
import { CATALOG, Catalog, OperatorEntry } from '../ports/catalog.port';
import { ServiceError } from '../shared/service-error';

/** The Operator resource (the spec's word for a carrier): a mobile prepaid carrier of the corridor. */
export interface OperatorResource {
  id: number;
  api_operator_id: string;
  name: string;
  category: 'MOBILE_PREPAID';
  min_amount: string;
  max_amount: string;
  local_currency: Currency;
}

/** What every catalog list carries before its entries. */
export interface CorridorListFields {
  corridor: Corridor;
  currency: Currency;
  count: number;
}

/** The OperatorList resource: the corridor's operators, or only the detected one when a phone was given. */
export interface OperatorListResource extends CorridorListFields {
  /** The queried phone in E.164, present when a phone was given. */
  phone?: string;
  operators: OperatorResource[];
}

export class ListCarriers extends Query<OperatorListResource> {
  constructor(
    readonly caller: Caller,
    /** When given, only the operator whose number range holds this phone. */
    readonly phone?: string,
  ) {
    super();
  }
}

export const operatorResource = (operator: OperatorEntry): OperatorResource => ({
  id: operator.id,
  api_operator_id: operator.apiOperatorId,
  name: operator.name,
  category: operator.category,
  min_amount: operator.minAmount,
  max_amount: operator.maxAmount,
  local_currency: operator.currency,
});

@QueryHandler(ListCarriers)
export class ListCarriersHandler implements IQueryHandler<ListCarriers, OperatorListResource> {
  constructor(@Inject(CATALOG) private readonly catalog: Catalog) {}

  async execute({ caller, phone }: ListCarriers): Promise<OperatorListResource> {
    let operators = this.catalog.operators(caller.corridor);
    let detected: Pick<OperatorListResource, 'phone'> = {};
    if (phone !== undefined) {
      const parsed = parseCorridorPhone(phone, caller.corridor);
      if (!parsed.ok) throw new ServiceError('validation_failed', parsed.detail);
      const operator = this.catalog.detectOperator(caller.corridor, parsed.e164);
      operators = operator ? [operator] : [];
      detected = { phone: parsed.e164 };
    }
    return {
      corridor: caller.corridor,
      currency: caller.currency,
      count: operators.length,
      ...detected,
      operators: operators.map(operatorResource),
    };
  }
}
