import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Caller } from '../../../application/auth/caller';
import { ListBillers } from '../../../application/catalog/list-billers';
import { ListOperators } from '../../../application/catalog/list-operators';
import { BillerCategory } from '../../../application/ports/catalog.port';
import { ServiceError } from '../../../application/shared/service-error';
import { CurrentCaller } from './partner-request';
import { PartnerAuthGuard } from './partner-auth.guard';

const BILLER_CATEGORIES: readonly BillerCategory[] = ['POSTPAID_MOBILE', 'ELECTRICITY', 'WATER', 'GAS', 'BROADBAND', 'DTH', 'LANDLINE', 'INSURANCE', 'CREDIT_CARD'];

@ApiTags('catalog')
@ApiBearerAuth()
@Controller('v1/partner')
@UseGuards(PartnerAuthGuard)
export class CatalogController {
  constructor(private readonly queries: QueryBus) {}

  @Get('operators')
  @ApiQuery({ name: 'phone', required: false, description: 'Detect the operator of this number (ported numbers may be misdetected)' })
  operators(@CurrentCaller() caller: Caller, @Query('phone') phone?: unknown): Promise<Record<string, unknown>> {
    if (phone !== undefined && typeof phone !== 'string') throw new ServiceError('validation_failed', 'phone: give it once');
    return this.queries.execute(new ListOperators(caller, phone));
  }

  @Get('billers')
  @ApiQuery({ name: 'category', required: false, enum: BILLER_CATEGORIES })
  billers(@CurrentCaller() caller: Caller, @Query('category') category?: unknown): Promise<Record<string, unknown>> {
    if (category !== undefined && !BILLER_CATEGORIES.includes(category as BillerCategory)) {
      throw new ServiceError('validation_failed', `category: one of ${BILLER_CATEGORIES.join(', ')}`);
    }
    return this.queries.execute(new ListBillers(caller, category as BillerCategory | undefined));
  }
}
