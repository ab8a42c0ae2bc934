import {
  BillQuery,
  NoBillDueError,
  OutstandingBill,
  ProviderGateway,
  ProviderOrder,
  ProviderNotSentError,
  ProviderOutcome,
  ProviderUnavailableError,
} from '../ports/provider-gateway.port';
import { OrderProduct } from '../../domain/wallet/order-product';
import { ProviderBreakers } from './provider-breakers';

/**
 * A live provider behind its circuit breaker (decision 0056). A refused call fails as ProviderNotSentError (the job
 * retries later); any answer counts for the provider, a ProviderUnavailableError against it, other errors neither.
 */
export class BreakerGuardedGateway implements ProviderGateway {
  constructor(
    private readonly name: string,
    private readonly provider: ProviderGateway,
    private readonly breakers: ProviderBreakers,
  ) {}

  submit(order: ProviderOrder, now: Date, signal?: AbortSignal): Promise<ProviderOutcome> {
    return this.guarded(() => this.provider.submit(order, now, signal));
  }

  poll(order: ProviderOrder, now: Date, signal?: AbortSignal): Promise<ProviderOutcome> {
    return this.guarded(() => this.provider.poll(order, now, signal));
  }

  fetchBill(request: BillQuery, now: Date, signal?: AbortSignal): Promise<OutstandingBill | null> {
    return this.guarded(() => this.provider.fetchBill(request, now, signal));
  }

  deliveryHorizonMs(kind: OrderProduct['kind']): number {
    return this.provider.deliveryHorizonMs?.(kind) ?? 0;
  }

  private async guarded<T>(call: () => Promise<T>): Promise<T> {
    if (!this.breakers.admit(this.name)) {
      const { nextProbeAt: next } = this.breakers.view(this.name);
      throw new ProviderNotSentError(
        `the circuit breaker of provider ${this.name} is open (no answer to repeated calls); nothing was sent; next probe at ${next ?? 'once a call is in'}`,
      );
    }
    let answer: T;
    try {
      answer = await call();
    } catch (error) {
      // "No bill due" is the biller's answer, and a rate limit with its Retry-After the provider's: it is up.
      const answered =
        error instanceof NoBillDueError || (error instanceof ProviderNotSentError && error.retryAfterMs !== null);
      this.breakers.record(
        this.name,
        answered ? 'answered' : error instanceof ProviderUnavailableError ? 'unknown' : 'inconclusive',
      );
      throw error;
    }
    this.breakers.record(this.name, 'answered');
    return answer;
  }
}
