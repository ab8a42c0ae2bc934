import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Caller } from '../auth/caller';
import { Currency } from '../../domain/money/currency';
import { BillerCategory, BillerEntry, CATALOG, Catalog } from '../ports/catalog.port';
import { CorridorListFields } from './list-carriers';

/** The BillerParam resource: an extra parameter a biller needs in `params` of bill-info and pay-bill. */
export interface BillerParamResource {
  name: string;
  label: string;
  required: boolean;
  pattern: string | null;
}

/** The BillerConsumerNumber resource: what the biller calls the consumer number, and its shape. */
export interface BillerConsumerNumberResource {
  label: string;
  pattern: string | null;
}

/** The Biller resource: a biller of the corridor. */
export interface BillerResource {
  id: number;
  api_biller_id: string;
  name: string;
  category: BillerCategory;
  bbps: boolean;
  local_currency: Currency;
  consumer_number: BillerConsumerNumberResource | null;
  params: BillerParamResource[];
}

/** The BillerList resource: the corridor's billers, of one category when one was given. */
export interface BillerListResource extends CorridorListFields {
  billers: BillerResource[];
}

export class ListBillers extends Query<BillerListResource> {
  constructor(
    readonly caller: Caller,
    readonly category?: BillerCategory,
  ) {
    super();
  }
}

export const billerResource = (biller: BillerEntry): BillerResource => ({
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
export class ListBillersHandler implements IQueryHandler<ListBillers, BillerListResource> {
  constructor(@Inject(CATALOG) private readonly catalog: Catalog) {}

  async execute({ caller, category }: ListBillers): Promise<BillerListResource> {
    const billers = this.catalog.billers(caller.corridor).filter((biller) => !category || biller.category === category);
    return {
      corridor: caller.corridor,
      currency: caller.currency,
      count: billers.length,
      billers: billers.map(billerResource),
    };
  }
}
