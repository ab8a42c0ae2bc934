import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Environment } from '../../domain/shared/environment';
import { BalanceView, PartnerView, READ_MODELS, ReadModels, StoredOrderView } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';
import { HeldFollowUp, HeldOrderFollowUp } from './held-order-follow-up';

/** A partner with its wallet's balance in each environment (null where it has none yet). */
export interface PartnerWithBalances extends PartnerView {
  balances: Record<Environment, BalanceView | null>;
}

export class ShowPartner extends Query<PartnerWithBalances> {
  constructor(readonly partnerId: string) {
    super();
  }
}

@QueryHandler(ShowPartner)
export class ShowPartnerHandler implements IQueryHandler<ShowPartner> {
  constructor(@Inject(READ_MODELS) private readonly readModels: ReadModels) {}

  async execute({ partnerId }: ShowPartner): Promise<PartnerWithBalances> {
    const partner = await this.readModels.partner(partnerId);
    if (!partner) throw new ServiceError('not_found', `no partner ${partnerId}`);
    const balances = {
      live: await this.readModels.balance(partnerId, 'live'),
      sandbox: await this.readModels.balance(partnerId, 'sandbox'),
    };
    return { ...partner, balances };
  }
}

export interface HeldOrder extends StoredOrderView {
  followUp: HeldFollowUp | null;
}

export class ListOrdersForOperators extends Query<HeldOrder[]> {
  constructor(
    readonly heldOnly: boolean,
    readonly limit: number,
  ) {
    super();
  }
}

@QueryHandler(ListOrdersForOperators)
export class ListOrdersForOperatorsHandler implements IQueryHandler<ListOrdersForOperators> {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    private readonly followUp: HeldOrderFollowUp,
  ) {}

  async execute({ heldOnly, limit }: ListOrdersForOperators): Promise<HeldOrder[]> {
    if (!heldOnly)
      throw new ServiceError('validation_failed', 'held: only the held orders can be listed here (held=true)');
    const orders = await this.readModels.heldOrders(limit);
    return Promise.all(orders.map(async (order) => ({ ...order, followUp: await this.followUp.of(order.orderId) })));
  }
}

export class ShowOrder extends Query<StoredOrderView> {
  constructor(readonly orderId: string) {
    super();
  }
}

@QueryHandler(ShowOrder)
export class ShowOrderHandler implements IQueryHandler<ShowOrder> {
  constructor(@Inject(READ_MODELS) private readonly readModels: ReadModels) {}

  async execute({ orderId }: ShowOrder): Promise<StoredOrderView> {
    const order = await this.readModels.order(orderId);
    if (!order) throw new ServiceError('not_found', `no order ${orderId}`);
    return order;
  }
}
