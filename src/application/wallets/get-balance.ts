import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Money } from '../../domain/money/money';
import { Caller } from '../auth/caller';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';

export class GetBalance extends Query<Record<string, unknown>> {
  constructor(readonly caller: Caller) {
    super();
  }
}

/** The Balance resource. A wallet with no events yet reads as zero. */
@QueryHandler(GetBalance)
export class GetBalanceHandler implements IQueryHandler<GetBalance, Record<string, unknown>> {
  constructor(@Inject(READ_MODELS) private readonly readModels: ReadModels) {}

  async execute({ caller }: GetBalance): Promise<Record<string, unknown>> {
    const balance = await this.readModels.balance(caller.partnerId, caller.environment);
    // A wallet that never moved reads as zero, unchanged since the partner was onboarded.
    const updatedAt = balance?.updatedAt ?? (await this.readModels.partner(caller.partnerId))?.createdAt ?? new Date(0).toISOString();
    return {
      available: balance?.available ?? Money.zero(caller.currency).toDecimal(),
      currency: caller.currency,
      corridor: caller.corridor,
      updated_at: updatedAt,
      environment: caller.environment,
    };
  }
}
