import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Caller } from '../auth/caller';
import { BillerCategory, BillerEntry, CATALOG, Catalog } from '../ports/catalog.port';

export class ListBillers extends Query<Record<string, unknown>> {
  constructor(
    readonly caller: Caller,
    readonly category?: BillerCategory,
  ) {
    super();
  }
}

export const billerResource = (biller: BillerEntry): Record<string, unknown> => ({
  id: biller.id,
  api_biller_id: biller.apiBillerId,
  name: biller.name,
  category: biller.category,
  bbps: biller.bbps,
  local_currency: biller.currency,
  consumer_number: biller.consumerNumber
    ? { label: biller.consumerNumber.label, pattern: biller.consumerNumber.pattern }
    : null,
  params: biller.params.map((param) => ({
    name: param.name,
    label: param.label,
    required: param.required,
    pattern: param.pattern,
  })),
});

@QueryHandler(ListBillers)
export class ListBillersHandler implements IQueryHandler<ListBillers, Record<string, unknown>> {
  constructor(@Inject(CATALOG) private readonly catalog: Catalog) {}

  async execute({ caller, category }: ListBillers): Promise<Record<string, unknown>> {
    const billers = this.catalog.billers(caller.corridor).filter((biller) => !category || biller.category === category);
    return {
      corridor: caller.corridor,
      currency: caller.currency,
      count: billers.length,
      billers: billers.map(billerResource),
    };
  }
}
