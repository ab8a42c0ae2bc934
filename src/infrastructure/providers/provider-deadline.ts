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

/** A provider call aborted at PROVIDER_TIMEOUT_MS (counted apart from other failures). */
class ProviderDeadlineError extends ProviderUnavailableError {}

/**
 * Bounds every call to a provider by `PROVIDER_TIMEOUT_MS`. A call that has not answered by then
 * is aborted (through its signal) and fails with ProviderUnavailableError, so a hung upstream
 * frees its job-worker slot well before the job's lease runs out, and a partner's bill fetch
 * gets a 503 instead of waiting on. What the provider did with an unanswered submission is
 * unknown: the submission is retried with the same order id, which the provider takes as the
 * same order.
 */
export class ProviderWithDeadline implements ProviderGateway {
  constructor(
    private readonly provider: ProviderGateway,
    private readonly timeoutMs: number,
    /** The metrics' `provider` label: `sandbox`, or the live provider's name. */
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
