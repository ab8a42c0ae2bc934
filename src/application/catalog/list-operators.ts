import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { parseCorridorPhone } from '../../domain/phone/corridor-phone';
import { Caller } from '../auth/caller';
import { CATALOG, Catalog, OperatorEntry } from '../ports/catalog.port';
import { ServiceError } from '../shared/service-error';

export class ListOperators extends Query<Record<string, unknown>> {
  constructor(
    readonly caller: Caller,
    /** When given, only the operator whose number range holds this phone. */
    readonly phone?: string,
  ) {
    super();
  }
}

export const operatorResource = (operator: OperatorEntry): Record<string, unknown> => ({
  id: operator.id,
  api_operator_id: operator.apiOperatorId,
  name: operator.name,
  category: operator.category,
  min_amount: operator.minAmount,
  max_amount: operator.maxAmount,
  local_currency: operator.currency,
});

@QueryHandler(ListOperators)
export class ListOperatorsHandler implements IQueryHandler<ListOperators, Record<string, unknown>> {
  constructor(@Inject(CATALOG) private readonly catalog: Catalog) {}

  async execute({ caller, phone }: ListOperators): Promise<Record<string, unknown>> {
    let operators = this.catalog.operators(caller.corridor);
    let detected: Record<string, unknown> = {};
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
