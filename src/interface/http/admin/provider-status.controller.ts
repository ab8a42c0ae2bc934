import { Controller, Get, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import { ShowLiveProvider } from '../../../application/operations/live-provider-status';
import { AdminTokenGuard } from './admin-token.guard';
import { RequiresPermission } from './permission.decorator';
import { liveProvidersResource } from './provider-status-resource';

@ApiExcludeController()
@Controller('v1/admin/providers')
@UseGuards(AdminTokenGuard)
export class ProviderStatusController {
  constructor(private readonly queries: QueryBus) {}

  @Get('status')
  @RequiresPermission('read')
  status() {
    return this.queries.execute(new ShowLiveProvider()).then(liveProvidersResource);
  }
}
