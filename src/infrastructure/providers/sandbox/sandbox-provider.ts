import {
  BillQuery,
  FinalProviderOutcome,
  OutstandingBill,
  ProviderGateway,
  ProviderOrder,
  ProviderOutcome,
} from '../../../application/ports/provider-gateway.port';
import { SANDBOX_BILLS, SANDBOX_SETTLEMENT_DELAY_MS, lastFourDigits, scenarioFor } from './sandbox-scenarios';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Mock upstream for sandbox keys: no money, deterministic outcomes, delays measured on the injected clock. */
export class SandboxProvider implements ProviderGateway {
  async submit(order: ProviderOrder, now: Date): Promise<ProviderOutcome> {
    return this.outcome(order, now);
  }

  async poll(order: ProviderOrder, now: Date): Promise<ProviderOutcome> {
    return this.outcome(order, now);
  }

  /** The instant outcomes (0001 and 0002, and suffixes not listed) need no call: the answer is fixed by the number. */
  answerWithoutCall(order: ProviderOrder): FinalProviderOutcome | null {
    const target = targetOf(order);
    switch (scenarioFor(target)) {
      case 'instant_success':
        return { status: 'succeeded', operatorRef: referenceOf(order) };
      case 'instant_failure':
        return declined(target);
      default:
        return null;
    }
  }

  async fetchBill(request: BillQuery, now: Date): Promise<OutstandingBill | null> {
    const suffix = lastFourDigits(request.consumerNumber);
    const bill = SANDBOX_BILLS[suffix];
    if (!bill) return null;
    const period = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const due = new Date(now.getTime() + (bill.overdue ? -5 : 10) * DAY_MS);
    const billPeriod = period.toISOString().slice(0, 7);
    return {
      customerName: `Sandbox Customer ${suffix}`,
      amount: bill.amount,
      dueDate: due.toISOString().slice(0, 10),
      billPeriod,
      billReference: `SBX-${request.billerId}-${suffix}-${billPeriod.replace('-', '')}`,
      overdue: bill.overdue,
    };
  }

  private outcome(order: ProviderOrder, now: Date): ProviderOutcome {
    const target = targetOf(order);
    const providerReference = referenceOf(order);
    const settleAt = new Date(order.placedAt).getTime() + SANDBOX_SETTLEMENT_DELAY_MS;
    const remaining = Math.max(settleAt - now.getTime(), 0);
    switch (scenarioFor(target)) {
      case 'instant_success':
        return { status: 'succeeded', operatorRef: providerReference };
      case 'instant_failure':
        return declined(target);
      case 'delayed_success':
        return remaining > 0
          ? { status: 'pending', providerReference, pollAfterMs: remaining }
          : { status: 'succeeded', operatorRef: providerReference };
      case 'delayed_failure':
        return remaining > 0 ? { status: 'pending', providerReference, pollAfterMs: remaining } : declined(target);
      case 'stuck':
        return { status: 'pending', providerReference, pollAfterMs: null };
    }
  }
}

const targetOf = (order: ProviderOrder): string =>
  order.product.kind === 'topup' ? order.product.phone : order.product.consumerNumber;

const referenceOf = (order: ProviderOrder): string => `SBX-${order.orderId}`;

const declined = (target: string): Extract<ProviderOutcome, { status: 'failed' }> => ({
  status: 'failed',
  reason: `sandbox: the provider declined the order (suffix ${lastFourDigits(target)})`,
  basis: 'provider_record',
});
