import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  BACK_OFFICE_SEARCH,
  BackOfficeSearch,
  JobBacklogLine,
  OrderSearch,
  PartnerSearch,
} from '../ports/back-office-search.port';
import { PartnerView, StoredOrderView } from '../ports/read-models.port';
import { CLOCK, Clock } from '../ports/clock.port';

/** The open jobs of each kind, and how many are open and due in all. */
export interface JobBacklog {
  asOf: string;
  open: number;
  due: number;
  kinds: JobBacklogLine[];
}

export class SearchPartners extends Query<PartnerView[]> {
  constructor(readonly search: PartnerSearch) {
    super();
  }
}

@QueryHandler(SearchPartners)
export class SearchPartnersHandler implements IQueryHandler<SearchPartners> {
  constructor(@Inject(BACK_OFFICE_SEARCH) private readonly search: BackOfficeSearch) {}

  async execute({ search }: SearchPartners): Promise<PartnerView[]> {
    return this.search.partners(search);
  }
}

export class SearchOrders extends Query<StoredOrderView[]> {
  constructor(readonly search: OrderSearch) {
    super();
  }
}

@QueryHandler(SearchOrders)
export class SearchOrdersHandler implements IQueryHandler<SearchOrders> {
  constructor(@Inject(BACK_OFFICE_SEARCH) private readonly search: BackOfficeSearch) {}

  async execute({ search }: SearchOrders): Promise<StoredOrderView[]> {
    return this.search.orders(search);
  }
}

export class ShowJobBacklog extends Query<JobBacklog> {}

@QueryHandler(ShowJobBacklog)
export class ShowJobBacklogHandler implements IQueryHandler<ShowJobBacklog> {
  constructor(
    @Inject(BACK_OFFICE_SEARCH) private readonly search: BackOfficeSearch,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(): Promise<JobBacklog> {
    const now = this.clock.now();
    const kinds = await this.search.jobBacklog(now);
    return {
      asOf: now.toISOString(),
      open: kinds.reduce((sum, line) => sum + line.open, 0),
      due: kinds.reduce((sum, line) => sum + line.due, 0),
      kinds,
    };
  }
}

export const BACK_OFFICE_QUERY_HANDLERS = [SearchPartnersHandler, SearchOrdersHandler, ShowJobBacklogHandler];
