import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Caller } from '../auth/caller';
import { BillerCategory, BillerEntry, CATALOG, Catalog } from '../ports/catalog.port';

export class ListBillers extends Query<BillerEntry[]> {
  constructor(
    readonly caller: Caller,
    readonly category?: BillerCategory,
  ) {
    super();
  }
}

@QueryHandler(ListBillers)
export class ListBillersHandler implements IQueryHandler<ListBillers, BillerEntry[]> {
  constructor(@Inject(CATALOG) private readonly catalog: Catalog) {}

  async execute({ caller, category }: ListBillers): Promise<BillerEntry[]> {
    return this.catalog.billers(caller.corridor).filter((biller) => !category || biller.category === category);
  }
}
