import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Caller } from '../../../application/auth/caller';
import { ListBillers } from '../../../application/catalog/list-billers';
import { ListCarriers } from '../../../application/catalog/list-carriers';
import { BILLER_CATEGORIES, isBillerCategory } from '../../../application/ports/catalog.port';
import { ServiceError } from '../../../application/shared/service-error';
import { ApiErrorResponses } from '../openapi/api-error-responses';
import { BillerListDto, OperatorListDto } from './dto/catalog-response.dto';
import { CurrentCaller } from '../../shared/partner-request';
import { billerListResource, operatorListResource } from '../../shared/catalog-resources';
import { PartnerAuthGuard } from './partner-auth.guard';
import { refuseUnknownQuery } from '../validation/query-values';

@ApiTags('catalog')
@ApiBearerAuth()
@Controller('v1/partner')
@UseGuards(PartnerAuthGuard)
export class CatalogController {
  constructor(private readonly queries: QueryBus) {}

  @Get('operators')
  @ApiOperation({
    summary: 'Mobile operators of your corridor, or the operator of one number',
    operationId: 'listOperators',
  })
  @ApiOkResponse({
    type: OperatorListDto,
    description: 'The operators (only the detected one when phone is given; none when no operator owns the number)',
  })
  @ApiErrorResponses({ 400: 'validation_failed: `phone` is not a mobile number of your corridor' })
  @ApiQuery({
    name: 'phone',
    required: false,
    description: 'Detect the operator of this number (ported numbers may be misdetected)',
    schema: { type: 'string', maxLength: 20 },
    example: '+919876540001',
  })
  operators(@CurrentCaller() caller: Caller, @Query() query: Record<string, unknown>) {
    refuseUnknownQuery(query, ['phone']);
    const { phone } = query;
    if (phone !== undefined && typeof phone !== 'string')
      throw new ServiceError('validation_failed', 'phone: give it once');
    return this.queries.execute(new ListCarriers(caller, phone)).then((list) => operatorListResource(caller, list));
  }

  @Get('billers')
  @ApiOperation({ summary: 'Billers of your corridor', operationId: 'listBillers' })
  @ApiOkResponse({ type: BillerListDto, description: 'The billers, of one category when category is given' })
  @ApiErrorResponses({ 400: 'validation_failed: `category` is not one of the listed categories' })
  @ApiQuery({ name: 'category', required: false, enum: BILLER_CATEGORIES })
  billers(@CurrentCaller() caller: Caller, @Query() query: Record<string, unknown>) {
    refuseUnknownQuery(query, ['category']);
    const { category } = query;
    if (category !== undefined && !isBillerCategory(category)) {
      throw new ServiceError('validation_failed', `category: one of ${BILLER_CATEGORIES.join(', ')}`);
    }
    return this.queries.execute(new ListBillers(caller, category)).then((found) => billerListResource(caller, found));
  }
}
