import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { parseCorridorPhone } from '../../domain/phone/corridor-phone';
import { Caller } from '../auth/caller';
import { CATALOG, Catalog, OperatorEntry } from '../ports/catalog.port';
import { ServiceError } from '../shared/service-error';

/** The corridor's operators (the spec's word for carriers), or only the one detected for a phone (then in E.164). */
export interface CarrierList {
  phone?: string;
  operators: OperatorEntry[];
}

export class ListCarriers extends Query<CarrierList> {
  constructor(
    readonly caller: Caller,
    /** When given, only the operator whose number range holds this phone. */
    readonly phone?: string,
  ) {
    super();
  }
}

@QueryHandler(ListCarriers)
export class ListCarriersHandler implements IQueryHandler<ListCarriers, CarrierList> {
  constructor(@Inject(CATALOG) private readonly catalog: Catalog) {}

  async execute({ caller, phone }: ListCarriers): Promise<CarrierList> {
    if (phone === undefined) return { operators: this.catalog.operators(caller.corridor) };
    const parsed = parseCorridorPhone(phone, caller.corridor);
    if (!parsed.ok) throw new ServiceError('validation_failed', parsed.detail);
    const operator = this.catalog.detectOperator(caller.corridor, parsed.e164);
    return { phone: parsed.e164, operators: operator ? [operator] : [] };
  }
}
