import {
  BillQuery,
  OutstandingBill,
  ProviderDirectory,
  ProviderGateway,
  ProviderOrder,
  ProviderOutcome,
  ProviderUnavailableError,
} from '../../src/application/ports/provider-gateway.port';
import { SeededRandom } from './seeded-random';

/** One answer of the upstream to a submit or a poll. `unavailable`: the call fails, its effect unknown. */
export type ScriptedAnswer = 'pending' | 'pending_no_poll' | 'succeeded' | 'failed' | 'unavailable';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** Poll delays the upstream asks for: some past the sandbox's 30 s, some past the stuck-order timer (15 min). */
const POLL_DELAYS_MS = [5 * SECOND, 30 * SECOND, 2 * MINUTE, 16 * MINUTE];

/** Some orders are decided only after they are held (15 min): this long after placement. */
const DECIDES_LATE_AFTER_MS = 18 * MINUTE;
/** How long after placement a held order is still asked about. */
export const SCRIPTED_HORIZON_MS = 2 * 60 * MINUTE;

interface OrderScript {
  answers: ScriptedAnswer[];
  calls: number;
  pollAfterMs: number;
  /** Until this long after placement the upstream says only "still processing" (no poll asked); null: from the start. */
  decidesAfterMs: number | null;
}

/**
 * The upstream of the simulation, for both environments. Each order gets a script drawn from its
 * own stream of the seed: some pending answers or failed calls, then a final outcome (or none: the
 * order stays pending until it is held, or is decided only after it was held), then duplicate answers that
 * repeat the outcome or, now and then, contradict it (an upstream that changes its mind, or answers late). The scheduler can
 * take the whole upstream down, and can make the next call hang so that the service "crashes"
 * while a provider call is in flight.
 */
export class ScriptedProvider implements ProviderGateway, ProviderDirectory {
  private readonly scripts = new Map<string, OrderScript>();
  /** While true every call fails as unavailable (the upstream is down). */
  outage = false;
  private hang: { reached: () => void } | null = null;
  readonly log: string[] = [];

  constructor(private readonly random: SeededRandom) {}

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

  /** The next submit or poll is received upstream (its answer counts), then never returns; resolves when it happens. */
  hangNextCall(): Promise<void> {
    return new Promise((resolve) => (this.hang = { reached: resolve }));
  }

  cancelHang(): void {
    this.hang = null;
  }

  submit(order: ProviderOrder, now: Date): Promise<ProviderOutcome> {
    return this.answer('submit', order, now);
  }

  poll(order: ProviderOrder, now: Date): Promise<ProviderOutcome> {
    return this.answer('poll', order, now);
  }

  deliveryHorizonMs(): number {
    return SCRIPTED_HORIZON_MS;
  }

  async fetchBill(request: BillQuery): Promise<OutstandingBill | null> {
    const digits = Number(request.consumerNumber.slice(-3));
    return {
      customerName: `Simulated Customer ${request.consumerNumber.slice(-4)}`,
      amount: `${20 + (digits % 200)}.50`,
      dueDate: '2026-02-01',
      billPeriod: '2026-01',
      billReference: `SIM-${request.billerId}-${request.consumerNumber}`,
      overdue: false,
    };
  }

  /** How often the upstream was asked about an order. */
  callsFor(orderId: string): number {
    return this.scripts.get(orderId)?.calls ?? 0;
  }

  private answer(call: 'submit' | 'poll', order: ProviderOrder, now: Date): Promise<ProviderOutcome> {
    if (this.outage) {
      this.log.push(`${call} ${order.orderId}: upstream down`);
      return Promise.reject(new ProviderUnavailableError('simulated upstream outage'));
    }
    const script = this.scriptOf(order.orderId);
    const undecided =
      script.decidesAfterMs !== null && now.getTime() < Date.parse(order.placedAt) + script.decidesAfterMs;
    const answer = undecided ? 'pending_no_poll' : script.answers[Math.min(script.calls, script.answers.length - 1)];
    if (!undecided) script.calls += 1;
    this.log.push(`${call} ${order.orderId}: ${answer}`);
    const hang = this.hang;
    if (hang) {
      this.hang = null;
      hang.reached();
      return new Promise<never>(() => undefined);
    }
    switch (answer) {
      case 'unavailable':
        return Promise.reject(new ProviderUnavailableError('simulated: no answer from the upstream'));
      case 'pending':
        return Promise.resolve({
          status: 'pending',
          providerReference: `SIM-${order.orderId}`,
          pollAfterMs: script.pollAfterMs,
        });
      case 'pending_no_poll':
        return Promise.resolve({ status: 'pending', providerReference: `SIM-${order.orderId}`, pollAfterMs: null });
      case 'succeeded':
        return Promise.resolve({ status: 'succeeded', operatorRef: `SIM-OP-${order.orderId}` });
      case 'failed':
        return Promise.resolve({
          status: 'failed',
          reason: 'simulated: the upstream declined the order',
          basis: 'provider_record',
        });
    }
  }

  private scriptOf(orderId: string): OrderScript {
    let script = this.scripts.get(orderId);
    if (!script) {
      script = drawScript(this.random.fork(orderId));
      this.scripts.set(orderId, script);
    }
    return script;
  }
}

function drawScript(random: SeededRandom): OrderScript {
  const answers: ScriptedAnswer[] = [];
  const pollAfterMs = random.pick(POLL_DELAYS_MS);
  for (let i = random.int(0, 3); i > 0; i--)
    answers.push(random.chance(0.25) ? 'unavailable' : random.chance(0.15) ? 'pending_no_poll' : 'pending');
  const final = random.weighted({ succeeded: 50, failed: 25, never: 15, late_success: 5, late_failure: 5 });
  if (final === 'never') {
    answers.push('pending');
    return { answers, calls: 0, pollAfterMs, decidesAfterMs: null };
  }
  if (final === 'late_success' || final === 'late_failure') {
    // Decided only once held: the hold's look-ups must find it.
    const late: ScriptedAnswer = final === 'late_success' ? 'succeeded' : 'failed';
    return { answers: [late], calls: 0, pollAfterMs, decidesAfterMs: DECIDES_LATE_AFTER_MS };
  }
  answers.push(final);
  // Later calls (a retried submission, a poll scheduled before the outcome) get a duplicate, sometimes a contradiction.
  const contradiction: ScriptedAnswer = final === 'succeeded' ? 'failed' : 'succeeded';
  for (let i = 0; i < 3; i++) answers.push(random.chance(0.3) ? contradiction : final);
  return { answers, calls: 0, pollAfterMs, decidesAfterMs: null };
}
