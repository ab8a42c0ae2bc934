import {
  BillQuery,
  OutstandingBill,
  ProviderDirectory,
  ProviderGateway,
  ProviderOrder,
  ProviderOutcome,
} from '../../src/application/ports/provider-gateway.port';

interface HeldCall {
  orderId: string;
  answer: (outcome: ProviderOutcome) => void;
}

/**
 * An upstream whose every answer the test gives: a call waits until the test answers it, so a
 * test can crash or restart the service, or let another process act, while the call is in flight.
 */
export class ControlledProvider implements ProviderGateway, ProviderDirectory {
  private readonly waiting: HeldCall[] = [];
  private readonly arrivals: ((call: HeldCall) => void)[] = [];
  readonly calls: string[] = [];
  /** When set, calls are answered with it at once instead of waiting for the test. */
  answerEveryCallWith: ProviderOutcome | null = null;

  sandbox(): ProviderGateway {
    return this;
  }

  /** Live orders need a route to a named provider; this upstream stands for none of them. */
  live(): ProviderGateway | null {
    return null;
  }

  liveNames(): string[] {
    return [];
  }

  submit(order: ProviderOrder): Promise<ProviderOutcome> {
    return this.hold('submit', order);
  }

  poll(order: ProviderOrder): Promise<ProviderOutcome> {
    return this.hold('poll', order);
  }

  async fetchBill(_request: BillQuery): Promise<OutstandingBill | null> {
    return null;
  }

  /** The next call to reach the upstream (already waiting, or the next to come). */
  nextCall(): Promise<HeldCall> {
    const call = this.waiting.shift();
    if (call) return Promise.resolve(call);
    return new Promise((resolve) => this.arrivals.push(resolve));
  }

  private hold(kind: string, order: ProviderOrder): Promise<ProviderOutcome> {
    this.calls.push(`${kind} ${order.orderId}`);
    if (this.answerEveryCallWith) return Promise.resolve(this.answerEveryCallWith);
    return new Promise((resolve) => {
      const call = { orderId: order.orderId, answer: resolve };
      const arrival = this.arrivals.shift();
      if (arrival) arrival(call);
      else this.waiting.push(call);
    });
  }
}
