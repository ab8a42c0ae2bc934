import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Money } from '../../domain/money/money';
import { parseCorridorPhone } from '../../domain/phone/corridor-phone';
import { Caller } from '../auth/caller';
import { CATALOG, Catalog } from '../ports/catalog.port';
import { ServiceError } from '../shared/service-error';
import { requestAmount } from './amount';
import { OrderDraft, OrderPlacement, PlacementAnswer } from './order-placement';

/** A topup of a phone with an operator of the caller's corridor: `amount` as the partner sent it. */
export interface Topup {
  operatorId: number;
  phone: string;
  amount: number;
  reference?: string;
}

export class PlaceTopup extends Command<PlacementAnswer> {
  constructor(
    readonly caller: Caller,
    readonly idempotencyKey: string,
    readonly request: Topup,
    /** Identifies the body as the partner sent it: under the same idempotency key, another hash is another request. */
    readonly requestHash: string,
    /** A dry run: every check, nothing placed (see OrderPlacement.preview). */
    readonly validateOnly = false,
  ) {
    super();
  }
}

@CommandHandler(PlaceTopup)
export class PlaceTopupHandler implements ICommandHandler<PlaceTopup, PlacementAnswer> {
  constructor(
    @Inject(CATALOG) private readonly catalog: Catalog,
    private readonly placement: OrderPlacement,
  ) {}

  execute({ caller, idempotencyKey, request, requestHash, validateOnly }: PlaceTopup): Promise<PlacementAnswer> {
    const run = validateOnly ? this.placement.preview.bind(this.placement) : this.placement.place.bind(this.placement);
    return run(caller, idempotencyKey, requestHash, async () => this.draft(caller, request));
  }

  private draft(caller: Caller, request: Topup): OrderDraft {
    const operator = this.catalog.operator(request.operatorId);
    if (!operator || !operator.active || operator.corridor !== caller.corridor) {
      throw new ServiceError(
        'operator_not_found_or_wrong_corridor',
        `operator_id ${request.operatorId} is not an operator of the ${caller.corridor} corridor`,
      );
    }
    const phone = parseCorridorPhone(request.phone, caller.corridor);
    if (!phone.ok) throw new ServiceError('validation_failed', phone.detail);
    const amount = requestAmount(request.amount, caller.currency);
    const min = Money.parse(operator.minAmount, caller.currency);
    const max = Money.parse(operator.maxAmount, caller.currency);
    if (!min || !max) throw new Error(`catalog amounts of operator ${operator.id} are unreadable`);
    if (amount.isLessThan(min) || max.isLessThan(amount)) {
      throw new ServiceError(
        'amount_out_of_range',
        `amount must be between ${min.toDecimal()} and ${max.toDecimal()} ${caller.currency} for ${operator.name}`,
      );
    }
    return {
      amount,
      reference: request.reference ?? null,
      product: { kind: 'topup', operatorId: operator.id, phone: phone.e164 },
    };
  }
}
