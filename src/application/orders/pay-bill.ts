import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Money } from '../../domain/money/money';
import { minorDigitsOf } from '../../domain/money/currency';
import { Caller } from '../auth/caller';
import { BILL_FETCH_STORE, BillFetchStore } from '../ports/bill-fetch-store.port';
import { CATALOG, Catalog } from '../ports/catalog.port';
import { CLOCK, Clock } from '../ports/clock.port';
import { SERVICE_SETTINGS, ServiceSettings } from '../shared/service-settings';
import { ServiceError } from '../shared/service-error';
import { requestAmount } from './amount';
import { billerOf, checkBillerParams, checkConsumerNumber } from './biller-rules';
import type { BillToFetch } from './fetch-bill';
import { OrderDraft, OrderPlacement, PlacementAnswer } from './order-placement';

/** A payment of the bill fetched last for this biller and consumer: `amount` as the partner sent it. */
export interface BillPayment extends BillToFetch {
  amount: number;
  reference?: string;
}

export class PayBill extends Command<PlacementAnswer> {
  constructor(
    readonly caller: Caller,
    readonly idempotencyKey: string,
    readonly request: BillPayment,
    /** Identifies the body as the partner sent it: under the same idempotency key, another hash is another request. */
    readonly requestHash: string,
    /** A dry run: every check, nothing placed (see OrderPlacement.preview). */
    readonly validateOnly = false,
  ) {
    super();
  }
}

/** Step 2 of a bill payment: the amount must match the fetched bill within one currency unit. */
@CommandHandler(PayBill)
export class PayBillHandler implements ICommandHandler<PayBill, PlacementAnswer> {
  constructor(
    @Inject(CATALOG) private readonly catalog: Catalog,
    @Inject(BILL_FETCH_STORE) private readonly bills: BillFetchStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SERVICE_SETTINGS) private readonly settings: ServiceSettings,
    private readonly placement: OrderPlacement,
  ) {}

  execute({ caller, idempotencyKey, request, requestHash, validateOnly }: PayBill): Promise<PlacementAnswer> {
    const run = validateOnly ? this.placement.preview.bind(this.placement) : this.placement.place.bind(this.placement);
    return run(caller, idempotencyKey, requestHash, () => this.draft(caller, request));
  }

  private async draft(caller: Caller, request: BillPayment): Promise<OrderDraft> {
    const biller = billerOf(this.catalog, request.billerId, caller.corridor);
    const consumerNumber = checkConsumerNumber(request.consumerNumber, biller);
    const params = checkBillerParams(biller, request.params ?? {});
    const amount = requestAmount(request.amount, caller.currency);
    const fetched = await this.bills.latest(caller.partnerId, caller.environment, biller.id, consumerNumber);
    const now = this.clock.now();
    if (!fetched || now.getTime() - new Date(fetched.fetchedAt).getTime() > this.settings.billValidityMs) {
      throw new ServiceError(
        'validation_failed',
        'consumer_number: no current bill for this biller and consumer; call POST /bill-info first',
      );
    }
    const due = Money.parse(fetched.amount, caller.currency);
    if (!due) throw new Error(`stored bill amount is unreadable: ${fetched.amount}`);
    if (!due.isPositive())
      throw new ServiceError('amount_out_of_range', 'nothing is due on this bill (0.00); there is nothing to pay');
    const oneUnit = Money.ofMinor(10n ** BigInt(minorDigitsOf(caller.currency)), caller.currency);
    const difference = amount.isLessThan(due) ? due.minus(amount) : amount.minus(due);
    if (oneUnit.isLessThan(difference)) {
      throw new ServiceError(
        'amount_out_of_range',
        `amount must match the fetched bill of ${due.toDecimal()} ${caller.currency} within 1.00 ${caller.currency}`,
      );
    }
    return {
      amount,
      reference: request.reference ?? null,
      product: {
        kind: 'bill_payment',
        billerId: biller.id,
        consumerNumber,
        billReference: fetched.billReference,
        params,
        // What the provider needs to pay this very fetch (Setu's fetch refId); only where it gave one.
        ...(fetched.providerBillRef ? { providerBillRef: fetched.providerBillRef } : {}),
      },
    };
  }
}
