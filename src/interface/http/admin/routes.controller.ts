import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import { RemoveRoute } from '../../../application/routing/remove-route';
import { SetRoutes } from '../../../application/routing/set-routes';
import { RouteHistory, ShowRoutes } from '../../../application/routing/show-routes';
import { Actor } from '../../../domain/shared/actor';
import { AdminTokenGuard } from './admin-token.guard';
import { RequiresPermission } from './permission.decorator';
import { RemoveRouteDto, SetRouteDto } from './dto/routes.dto';
import { CurrentOperator } from './operator.decorator';
import { routeHistoryResource, routesChangedResource, routesResource } from './route-resources';

@ApiExcludeController()
@Controller('v1/admin/routes')
@UseGuards(AdminTokenGuard)
export class RoutesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @RequiresPermission('read')
  list() {
    return this.queries.execute(new ShowRoutes()).then(routesResource);
  }

  @Get('history')
  @RequiresPermission('read')
  history() {
    return this.queries.execute(new RouteHistory()).then(routeHistoryResource);
  }

  @Post()
  @HttpCode(200)
  @RequiresPermission('manage_routes')
  set(@Body() body: SetRouteDto, @CurrentOperator() operator: Actor) {
    const route = {
      product: { kind: body.kind, id: body.id },
      target: { provider: body.provider, upstreamId: body.upstream_id },
    };
    return this.commands.execute(new SetRoutes([route], 'manual', operator)).then(routesChangedResource);
  }

  @Post('remove')
  @HttpCode(200)
  @RequiresPermission('manage_routes')
  remove(@Body() body: RemoveRouteDto, @CurrentOperator() operator: Actor) {
    return this.commands.execute(new RemoveRoute({ kind: body.kind, id: body.id }, body.reason, operator));
  }
}
