import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ENVIRONMENTS } from '../../domain/shared/environment';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';
import { adminOrderResource } from './admin-order-resource';

export class ShowPartner extends Query<Record<string, unknown>> {
  constructor(readonly partnerId: string) {
    super();
  }
}

/** Partner, KYC status and both balances; never keys or their hashes. */
@QueryHandler(ShowPartner)
export class ShowPartnerHandler implements IQueryHandler<ShowPartner> {
  constructor(@Inject(READ_MODELS) private readonly readModels: ReadModels) {}

  async execute({ partnerId }: ShowPartner): Promise<Record<string, unknown>> {
    const partner = await this.readModels.partner(partnerId);
    if (!partner) throw new ServiceError('not_found', `no partner ${partnerId}`);
    const balances: Record<string, unknown> = {};
    for (const environment of ENVIRONMENTS) {
      const balance = await this.readModels.balance(partnerId, environment);
      balances[environment] = balance
        ? { available: balance.available, currency: balance.currency, updated_at: balance.updatedAt }
        : null;
    }
    return {
      partner_id: partner.partnerId,
      name: partner.name,
      corridor: partner.corridor,
      kyc_status: partner.kycStatus,
      created_at: partner.createdAt,
      balances,
    };
  }
}

export class ListOrdersForOperators extends Query<Record<string, unknown>> {
  constructor(
    readonly heldOnly: boolean,
    readonly limit: number,
  ) {
    super();
  }
}

@QueryHandler(ListOrdersForOperators)
export class ListOrdersForOperatorsHandler implements IQueryHandler<ListOrdersForOperators> {
  constructor(@Inject(READ_MODELS) private readonly readModels: ReadModels) {}

  async execute({ heldOnly, limit }: ListOrdersForOperators): Promise<Record<string, unknown>> {
    if (!heldOnly)
      throw new ServiceError('validation_failed', 'held: only the held orders can be listed here (held=true)');
    const orders = await this.readModels.heldOrders(limit);
    return { count: orders.length, orders: orders.map(adminOrderResource) };
  }
}

export class ShowOrder extends Query<Record<string, unknown>> {
  constructor(readonly orderId: string) {
    super();
  }
}

@QueryHandler(ShowOrder)
export class ShowOrderHandler implements IQueryHandler<ShowOrder> {
  constructor(@Inject(READ_MODELS) private readonly readModels: ReadModels) {}

  async execute({ orderId }: ShowOrder): Promise<Record<string, unknown>> {
    const order = await this.readModels.order(orderId);
    if (!order) throw new ServiceError('not_found', `no order ${orderId}`);
    return adminOrderResource(order);
  }
}
