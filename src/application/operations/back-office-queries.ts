import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { BACK_OFFICE_SEARCH, BackOfficeSearch, OrderSearch, PartnerSearch } from '../ports/back-office-search.port';
import { PartnerView, StoredOrderView } from '../ports/read-models.port';
import { CLOCK, Clock } from '../ports/clock.port';
import { Corridor } from '../../domain/corridor/corridor';
import { KycStatus } from '../../domain/partner/partner.events';

export interface PartnerEntryResource {
  partner_id: string;
  name: string;
  corridor: Corridor;
  kyc_status: KycStatus;
  created_at: string;
}

export const partnerEntryResource = (partner: PartnerView): PartnerEntryResource => ({
  partner_id: partner.partnerId,
  name: partner.name,
  corridor: partner.corridor,
  kyc_status: partner.kycStatus,
  created_at: partner.createdAt,
});

export interface PartnerListResource {
  count: number;
  partners: PartnerEntryResource[];
}

export interface JobKindBacklogResource {
  kind: string;
  open: number;
  due: number;
  retrying: number;
  running: number;
  oldest_due_at: string | null;
  last_error: string | null;
}

export interface JobBacklogResource {
  as_of: string;
  open: number;
  due: number;
  kinds: JobKindBacklogResource[];
}

export class SearchPartners extends Query<PartnerListResource> {
  constructor(readonly search: PartnerSearch) {
    super();
  }
}

@QueryHandler(SearchPartners)
export class SearchPartnersHandler implements IQueryHandler<SearchPartners> {
  constructor(@Inject(BACK_OFFICE_SEARCH) private readonly search: BackOfficeSearch) {}

  async execute({ search }: SearchPartners): Promise<PartnerListResource> {
    const partners = await this.search.partners(search);
    return { count: partners.length, partners: partners.map(partnerEntryResource) };
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

export class ShowJobBacklog extends Query<JobBacklogResource> {}

@QueryHandler(ShowJobBacklog)
export class ShowJobBacklogHandler implements IQueryHandler<ShowJobBacklog> {
  constructor(
    @Inject(BACK_OFFICE_SEARCH) private readonly search: BackOfficeSearch,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(): Promise<JobBacklogResource> {
    const now = this.clock.now();
    const lines = await this.search.jobBacklog(now);
    return {
      as_of: now.toISOString(),
      open: lines.reduce((sum, line) => sum + line.open, 0),
      due: lines.reduce((sum, line) => sum + line.due, 0),
      kinds: lines.map((line) => ({
        kind: line.kind,
        open: line.open,
        due: line.due,
        retrying: line.retrying,
        running: line.running,
        oldest_due_at: line.oldestDueAt,
        last_error: line.lastError,
      })),
    };
  }
}

export const BACK_OFFICE_QUERY_HANDLERS = [SearchPartnersHandler, SearchOrdersHandler, ShowJobBacklogHandler];
