import { serviceMetrics } from '../metrics/service-metrics';
import { OrderProduct } from '../../domain/wallet/order-product';
import {
  BillQuery,
  FinalProviderOutcome,
  OutstandingBill,
  ProviderGateway,
  ProviderOrder,
  ProviderOutcome,
  ProviderUnavailableError,
} from '../../application/ports/provider-gateway.port';

class ProviderDeadlineError extends ProviderUnavailableError {}

/** Bounds every provider call by `PROVIDER_TIMEOUT_MS` (decision 0037): a late call is aborted and fails with ProviderUnavailableError. */
export class ProviderWithDeadline implements ProviderGateway {
  constructor(
    private readonly provider: ProviderGateway,
    private readonly timeoutMs: number,
    private readonly name = 'sandbox',
  ) {}

  submit(order: ProviderOrder, now: Date): Promise<ProviderOutcome> {
    return this.measured('submit', `submitting order ${order.orderId}`, (signal) =>
      this.provider.submit(order, now, signal),
    );
  }

  poll(order: ProviderOrder, now: Date): Promise<ProviderOutcome> {
    return this.measured('poll', `polling order ${order.orderId}`, (signal) => this.provider.poll(order, now, signal));
  }

  /** No call is made, so no deadline applies: the provider's own answer without a call, if it gives one. */
  answerWithoutCall(order: ProviderOrder): FinalProviderOutcome | null {
    return this.provider.answerWithoutCall?.(order) ?? null;
  }

  deliveryHorizonMs(kind: OrderProduct['kind']): number {
    return this.provider.deliveryHorizonMs?.(kind) ?? 0;
  }

  fetchBill(request: BillQuery, now: Date): Promise<OutstandingBill | null> {
    return this.measured('fetch_bill', `fetching the bill of biller ${request.billerId}`, (signal) =>
      this.provider.fetchBill(request, now, signal),
    );
  }

  private async measured<T>(
    operation: 'submit' | 'poll' | 'fetch_bill',
    what: string,
    call: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const stop = serviceMetrics.providerCalls.startTimer({ provider: this.name, operation });
    try {
      const answer = await this.bounded(what, call);
      stop({ outcome: 'answered' });
      return answer;
    } catch (error) {
      stop({ outcome: error instanceof ProviderDeadlineError ? 'timeout' : 'error' });
      throw error;
    }
  }

  private bounded<T>(what: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    return new Promise<T>((resolve, reject) => {
      const deadline = setTimeout(() => {
        const error = new ProviderDeadlineError(`the provider did not answer within ${this.timeoutMs} ms (${what})`);
        abort.abort(error);
        reject(error);
      }, this.timeoutMs);
      deadline.unref();
      call(abort.signal).then(
        (answer) => {
          clearTimeout(deadline);
          resolve(answer);
        },
        (error: unknown) => {
          clearTimeout(deadline);
          reject(error);
        },
      );
    });
  }
}
