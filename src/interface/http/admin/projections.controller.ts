import { Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  RebuildProjection,
  ShowProjectionRebuild,
  ShowProjections,
} from '../../../application/operations/projection-rebuilds';
import { AdminTokenGuard } from './admin-token.guard';
import { CurrentIdentity } from './operator.decorator';
import { OperatorIdentity } from '../../../application/back-office/operator-identity';
import { RequiresPermission } from './permission.decorator';
import { projectionsResource, rebuildResource } from './projection-resources';

@ApiExcludeController()
@Controller('v1/admin/projections')
@UseGuards(AdminTokenGuard)
export class ProjectionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @RequiresPermission('read')
  status() {
    return this.queries.execute(new ShowProjections()).then(projectionsResource);
  }

  @Get('rebuilds/:id')
  @RequiresPermission('read')
  rebuild(@Param('id') id: string) {
    return this.queries.execute(new ShowProjectionRebuild(id)).then(rebuildResource);
  }

  @Post(':name/rebuild')
  @HttpCode(202)
  @RequiresPermission('run_projections')
  startRebuild(@Param('name') name: string, @CurrentIdentity() operator: OperatorIdentity) {
    return this.commands.execute(new RebuildProjection(name, operator)).then(rebuildResource);
  }
}
