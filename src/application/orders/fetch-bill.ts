import { Inject, Logger } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Money } from '../../domain/money/money';
import { Caller } from '../auth/caller';
import { BILL_FETCH_STORE, BillFetchStore } from '../ports/bill-fetch-store.port';
import { CATALOG, Catalog } from '../ports/catalog.port';
import { CLOCK, Clock } from '../ports/clock.port';
import {
  BillFetchUnsupportedError,
  NoBillDueError,
  OutstandingBill,
  ProviderUnavailableError,
} from '../ports/provider-gateway.port';
import { OrderRouting } from '../routing/order-routing';
import { ServiceError } from '../shared/service-error';
import { billerOf, checkBillerParams, checkConsumerNumber } from './biller-rules';

/** Which bill to fetch: a biller of the caller's corridor, the consumer's number there and the biller's parameters. */
export interface BillToFetch {
  billerId: number;
  consumerNumber: string;
  params?: Record<string, string>;
}

/** The outstanding bill, step 1 of a bill payment, as remembered for pay-bill. */
export interface BillInfo {
  billerId: number;
  billerName: string;
  consumerNumber: string;
  customerName: string;
  amount: Money;
  dueDate: string;
  billPeriod: string;
  billReference: string;
  fetchedAt: string;
}

export class FetchBill extends Command<BillInfo> {
  constructor(
    readonly caller: Caller,
    readonly request: BillToFetch,
  ) {
    super();
  }
}

/** Step 1 of a bill payment: asks the biller for the outstanding amount and remembers it for pay-bill. */
@CommandHandler(FetchBill)
export class FetchBillHandler implements ICommandHandler<FetchBill, BillInfo> {
  private readonly logger = new Logger('Bills');

  constructor(
    @Inject(CATALOG) private readonly catalog: Catalog,
    private readonly routing: OrderRouting,
    @Inject(BILL_FETCH_STORE) private readonly bills: BillFetchStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ caller, request }: FetchBill): Promise<BillInfo> {
    const biller = billerOf(this.catalog, request.billerId, caller.corridor);
    const consumerNumber = checkConsumerNumber(request.consumerNumber, biller);
    const params = checkBillerParams(biller, request.params ?? {});
    const route = await this.routing.routeForNewOrder(caller.environment, { kind: 'biller', id: biller.id });
    const provider = this.routing.gatewayOf(caller.environment, route, `biller ${biller.id}`);
    const now = this.clock.now();
    let bill: OutstandingBill | null;
    try {
      bill = await provider.fetchBill(
        { billerId: biller.id, consumerNumber, currency: caller.currency, params, route },
        now,
      );
    } catch (error) {
      // The provider's own words go to the log only: the partner's detail names no provider, path or upstream text.
      if (
        error instanceof ProviderUnavailableError ||
        error instanceof NoBillDueError ||
        error instanceof BillFetchUnsupportedError
      )
        this.logger.warn(`bill fetch for biller ${biller.id} failed: ${error.message}`);
      if (error instanceof ProviderUnavailableError)
        throw new ServiceError(
          'provider_unavailable',
          `${biller.name} could not be asked for the bill at the moment; retry later`,
        );
      // The spec's code for "nothing to pay", as pay-bill answers a 0.00 bill (decision 0013).
      if (error instanceof NoBillDueError)
        throw new ServiceError(
          'amount_out_of_range',
          `nothing is due on this bill: ${biller.name} reports no bill due for consumer_number ${consumerNumber}; there is nothing to pay`,
        );
      if (error instanceof BillFetchUnsupportedError) {
        throw new ServiceError(
          'invalid_state',
          error.refusal === 'convenience_fee'
            ? `${biller.name} charges a customer convenience fee on top of the bill, which this service cannot show or collect; its bills cannot be paid here`
            : `${biller.name} bills cannot be fetched in ${caller.environment}, so none can be paid here for now; contact us`,
        );
      }
      throw error;
    }
    if (!bill)
      throw new ServiceError('not_found', `${biller.name} has no bill on record for consumer_number ${consumerNumber}`);
    const amount = Money.parse(bill.amount, caller.currency);
    if (!amount) throw new Error(`provider returned an unreadable bill amount: ${bill.amount}`);
    const fetchedAt = now.toISOString();
    await this.bills.save({
      partnerId: caller.partnerId,
      environment: caller.environment,
      billerId: biller.id,
      consumerNumber,
      amount: amount.toDecimal(),
      currency: caller.currency,
      billReference: bill.billReference,
      fetchedAt,
      providerBillRef: bill.providerBillRef ?? null,
    });
    return {
      billerId: biller.id,
      billerName: biller.name,
      consumerNumber,
      customerName: bill.customerName,
      amount,
      dueDate: bill.dueDate,
      billPeriod: bill.billPeriod,
      billReference: bill.billReference,
      fetchedAt,
    };
  }
}
