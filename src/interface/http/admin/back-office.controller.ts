import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import { ListOrdersForOperators, ShowPartner } from '../../../application/operations/admin-queries';
import { SearchOrders, SearchPartners, ShowJobBacklog } from '../../../application/operations/back-office-queries';
import { GetPartnerSettings } from '../../../application/settings/get-partner-settings';
import { ServiceError } from '../../../application/shared/service-error';
import { CORRIDORS, Corridor } from '../../../domain/corridor/corridor';
import { KycStatus } from '../../../domain/partner/partner.events';
import { ENVIRONMENTS } from '../../../domain/shared/environment';
import { TransactionStatus } from '../../../domain/transaction/transaction.decider';
import { queryLimit, refuseUnknownQuery } from '../validation/query-values';
import { AdminTokenGuard } from './admin-token.guard';
import { RequiresPermission } from './permission.decorator';
import { BackOfficeQuery } from './back-office-query';
import { heldOrderListResource, orderListResource } from './admin-order-resource';
import { jobBacklogResource } from './job-backlog-resource';
import { partnerListResource } from './partner-resources';
import { partnerSettingsResource } from '../../shared/settings-resources';

const KYC_STATUSES: readonly KycStatus[] = ['pending', 'approved', 'suspended'];
const ORDER_STATUSES: readonly TransactionStatus[] = ['INITIATED', 'PENDING', 'DISPUTED', 'SUCCESS', 'FAILED'];

@ApiExcludeController()
@Controller('v1/admin')
@UseGuards(AdminTokenGuard)
export class BackOfficeController {
  constructor(private readonly queries: QueryBus) {}

  @Get('partners')
  @RequiresPermission('read')
  partners(@Query() raw: Record<string, unknown>) {
    refuseUnknownQuery(raw, ['q', 'corridor', 'kyc_status', 'limit']);
    const query = new BackOfficeQuery(raw);
    const search = {
      text: query.text('q'),
      corridor: query.oneOf<Corridor>('corridor', Object.keys(CORRIDORS) as Corridor[]),
      kycStatus: query.oneOf('kyc_status', KYC_STATUSES),
      limit: queryLimit(raw.limit, 100, 1000),
    };
    return this.queries.execute(new SearchPartners(search)).then(partnerListResource);
  }

  @Get('partners/:id/settings')
  @RequiresPermission('read')
  async settings(@Param('id') partnerId: string, @Query() raw: Record<string, unknown>) {
    refuseUnknownQuery(raw, ['environment']);
    const environment = new BackOfficeQuery(raw).oneOf('environment', ENVIRONMENTS);
    if (environment === undefined)
      throw new ServiceError('validation_failed', 'environment: required, sandbox or live');
    // An unknown partner has no settings (the read model would answer the defaults): 404.
    await this.queries.execute(new ShowPartner(partnerId));
    return partnerSettingsResource(await this.queries.execute(new GetPartnerSettings(partnerId, environment)));
  }

  /** `held=true`: the held queue, oldest first. Otherwise a search, newest first, by any of the filters. */
  @Get('orders')
  @RequiresPermission('read')
  async orders(@Query() raw: Record<string, unknown>) {
    refuseUnknownQuery(raw, [
      'held',
      'partner_id',
      'environment',
      'status',
      'created_from',
      'created_to',
      'reference',
      'phone',
      'consumer_number',
      'limit',
    ]);
    const query = new BackOfficeQuery(raw);
    const limit = queryLimit(raw.limit, 100, 1000);
    const held = query.oneOf('held', ['true', 'false']);
    if (held === 'true') {
      if (Object.keys(raw).some((name) => name !== 'held' && name !== 'limit'))
        throw new ServiceError('validation_failed', 'held: the held queue takes no other filter than limit');
      return heldOrderListResource(await this.queries.execute(new ListOrdersForOperators(true, limit)));
    }
    const found = await this.queries.execute(
      new SearchOrders({
        partnerId: query.text('partner_id', 100),
        environment: query.oneOf('environment', ENVIRONMENTS),
        status: query.oneOf('status', ORDER_STATUSES),
        createdFrom: query.instant('created_from'),
        createdTo: query.instant('created_to'),
        reference: query.text('reference', 100),
        phone: query.phone('phone'),
        consumerNumber: query.text('consumer_number', 100),
        limit,
      }),
    );
    return orderListResource(found);
  }

  @Get('jobs')
  @RequiresPermission('read')
  jobs(@Query() raw: Record<string, unknown>) {
    refuseUnknownQuery(raw, []);
    return this.queries.execute(new ShowJobBacklog()).then(jobBacklogResource);
  }
}
