import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import { CreateOperator } from '../../../application/back-office/create-operator';
import { ListOperators } from '../../../application/back-office/list-operators';
import { OperatorIdentity } from '../../../application/back-office/operator-identity';
import { RevokeOperators } from '../../../application/back-office/revoke-operators';
import { ROLE_PERMISSIONS } from '../../../domain/back-office/operator-role';
import { DEFAULT_TOKEN_DAYS } from '../../../domain/back-office/operator-token';
import { Actor } from '../../../domain/shared/actor';
import { refuseUnknownQuery } from '../validation/query-values';
import { AdminTokenGuard } from './admin-token.guard';
import { CreateOperatorDto, RevokeOperatorDto } from './dto/operators.dto';
import { CurrentIdentity, CurrentOperator } from './operator.decorator';
import { RequiresPermission } from './permission.decorator';
import { createdOperatorResource, operatorListResource, revokedOperatorsResource } from './operator-resources';

@ApiExcludeController()
@Controller('v1/admin/operators')
@UseGuards(AdminTokenGuard)
@RequiresPermission('manage_operators')
export class OperatorsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** The token is in this answer only. */
  @Post()
  @HttpCode(201)
  create(@Body() body: CreateOperatorDto, @CurrentOperator() owner: Actor) {
    const create = new CreateOperator(body.name, body.role, body.expires_in_days ?? DEFAULT_TOKEN_DAYS, owner);
    return this.commands.execute(create).then(createdOperatorResource);
  }

  @Get()
  list(@Query() query: Record<string, unknown>) {
    refuseUnknownQuery(query, []);
    return this.queries.execute(new ListOperators()).then(operatorListResource);
  }

  @Get('me')
  @RequiresPermission('read')
  me(@CurrentIdentity() identity: OperatorIdentity, @Query() query: Record<string, unknown>) {
    refuseUnknownQuery(query, []);
    return {
      name: identity.name,
      role: identity.role,
      operator_id: identity.operatorId,
      expires_at: identity.expiresAt,
      break_glass: identity.breakGlass,
      permissions: ROLE_PERMISSIONS[identity.role],
    };
  }

  /** `ref`: an operator id (that token) or a name (every token of that person). */
  @Post(':ref/revoke')
  @HttpCode(200)
  revoke(@Param('ref') ref: string, @Body() body: RevokeOperatorDto, @CurrentOperator() owner: Actor) {
    return this.commands.execute(new RevokeOperators(ref, body.reason, owner)).then(revokedOperatorsResource);
  }
}
