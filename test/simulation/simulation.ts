import { EVENT_STORE, EventStore } from '../../src/application/ports/event-store.port';
import { walkLedger } from '../../src/application/audit/ledger-walk';
import { Money } from '../../src/domain/money/money';
import { Environment } from '../../src/domain/shared/environment';
import { ManualClock } from '../support/manual-clock';
import { createTestDatabase } from '../support/postgres-test-database';
import { catchUpReadModels, compareOrdersReadModel, foldLog, LogFold, verifyMoneyInvariants } from './invariant-checks';
import { compareOrderReaders } from './order-readers';
import { LiveUpstreams } from './live-upstreams';
import { ScriptedProvider } from './scripted-provider';
import { ScriptedWebhookReceiver } from './scripted-webhook-receiver';
import { SeededRandom } from './seeded-random';
import { SeededSecrets } from './seeded-secrets';
import { Answer, ServiceDoubles, SimulatedService } from './simulated-service';

export interface SimulationOptions {
  seed: number;
  steps: number;
  /** Jobs run at once (default 1: an exact replay; more finds races between jobs, but a seed may not replay). */
  jobConcurrency?: number;
  /**
   * Draw no concurrent steps. Which of several concurrent requests commits first is the database's
   * call, and it can change with the machine's load, so only a sequential run replays exactly.
   */
  sequential?: boolean;
  /** Each step's line as it happens (the CLI prints them with --verbose). */
  onStep?: (line: string) => void;
}

export interface SimulationFailure {
  step: number;
  action: string;
  problems: string[];
}

export interface SimulationResult {
  seed: number;
  steps: number;
  jobConcurrency: number;
  sequential: boolean;
  failure: SimulationFailure | null;
  /** One line per step: what was done and what the service answered. */
  trace: string[];
  stats: Record<string, number>;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** STUCK_ORDER_AFTER_SECONDS' default: a pending order is held after 15 minutes. */
const STUCK_AFTER_MS = 15 * MINUTE;
/** Past the time the scripted upstream decides its late orders (18 min after placement) and their next look-ups. */
const LATE_DECISIONS_MS = 30 * MINUTE;
const START = new Date('2026-01-15T10:00:00.000Z');

/** How often each kind of step is drawn. */
const WEIGHTS = {
  topup: 20,
  pay_bill: 5,
  repeat_key: 6,
  reuse_key_other_body: 2,
  concurrent_same_key: 4,
  concurrent_two_wallets: 3,
  concurrent_same_wallet: 2,
  operator_credit: 4,
  settle: 12,
  run_due_jobs_once: 6,
  clock_small: 8,
  clock_past_30s: 4,
  clock_past_5min: 3,
  clock_past_stuck: 2,
  resolve_held: 4,
  rebuild_projection: 1,
  crash: 2,
  crash_during_provider_call: 1,
  provider_outage: 1,
  live_topup: 4,
  live_pay_bill: 3,
} as const;
type Action = keyof typeof WEIGHTS;

const SEQUENTIAL_WEIGHTS: Record<Action, number> = {
  ...WEIGHTS,
  concurrent_same_key: 0,
  concurrent_two_wallets: 0,
  concurrent_same_wallet: 0,
};

const OPERATORS = [101, 102, 103];
const BILLER = 1001;
/** Live: operator 101 through Reloadly, biller 1005 (BESCOM) through Setu; the simulators' scenarios by suffix. */
const LIVE_OPERATOR = 101;
const LIVE_BILLER = 1005;
const LIVE_PHONE_SUFFIXES = ['0001', '0002', '0003', '0004', '0005'];
const LIVE_CONSUMER_SUFFIXES = ['0001', '0002', '0003', '0004', '0012'];

interface Wallet {
  name: string;
  partnerId: string;
  environment: Environment;
  token: string;
}

interface KeyUse {
  wallet: Wallet;
  path: '/topup' | '/pay-bill';
  body: Record<string, unknown>;
  /** The order of the first 200 answer; null while the key has only been refused. */
  orderId: string | null;
}

class ProblemFound extends Error {}

/**
 * A seeded run against the real service: `steps` steps drawn from WEIGHTS, each followed by the
 * invariant checks; then a wind-down (upstream back, clock moved on, held orders resolved) after
 * which every order must be final and `verify` must pass with no refund outstanding.
 */
export async function runSimulation(options: SimulationOptions): Promise<SimulationResult> {
  const run = new SimulationRun(options);
  try {
    return await run.execute();
  } finally {
    await run.dispose();
  }
}

class SimulationRun {
  private readonly random: SeededRandom;
  private readonly scheduler: SeededRandom;
  private readonly clock = new ManualClock(START);
  private readonly provider: ScriptedProvider;
  private readonly doubles: ServiceDoubles;
  private service: SimulatedService | null = null;
  private databaseUrl = '';
  private dropDatabase: () => Promise<void> = async () => undefined;
  private readonly wallets: Wallet[] = [];
  /** A KYC-approved partner's live wallet, whose orders go to the two protocol simulators. */
  private liveWallet: Wallet | null = null;
  private upstreams: LiveUpstreams | null = null;
  private readonly keys = new Map<string, KeyUse>();
  private readonly creditKeys: {
    wallet: Wallet;
    key: string;
    body: Record<string, unknown>;
    creditId: string | null;
  }[] = [];
  /** Every order the service answered 200 for: each must stay in the log. */
  private readonly accepted = new Set<string>();
  /** The live orders among them: each is sent upstream at most once. */
  private readonly liveOrders = new Set<string>();
  private readonly trace: string[] = [];
  private readonly stats: Record<string, number> = {};
  private keyCounter = 0;

  constructor(private readonly options: SimulationOptions) {
    this.random = new SeededRandom(options.seed);
    this.scheduler = this.random.fork('scheduler');
    this.provider = new ScriptedProvider(this.random.fork('provider'));
    this.doubles = {
      clock: this.clock,
      providers: this.provider,
      webhookSender: new ScriptedWebhookReceiver(this.random.fork('webhooks')),
      secrets: new SeededSecrets(this.random.fork('ids')),
    };
  }

  async execute(): Promise<SimulationResult> {
    const database = await createTestDatabase(`sim_${this.options.seed}`);
    this.databaseUrl = database.connectionString;
    this.dropDatabase = () => database.drop();
    this.upstreams = await LiveUpstreams.start(this.provider, this.options.seed);
    this.doubles.providers = this.upstreams;
    this.service = await SimulatedService.start(this.databaseUrl, this.doubles, this.options.jobConcurrency);
    await this.setUp();
    let step = 0;
    let action: Action | 'wind_down' = 'topup';
    try {
      for (step = 1; step <= this.options.steps; step++) {
        action = this.scheduler.weighted(this.options.sequential ? SEQUENTIAL_WEIGHTS : WEIGHTS);
        this.stats[action] = (this.stats[action] ?? 0) + 1;
        const line = `#${step} ${await this.perform(action)}`;
        this.note(line);
        await this.checkInvariants(Number.POSITIVE_INFINITY);
      }
      step = this.options.steps + 1;
      action = 'wind_down';
      this.note(`#${step} ${await this.windDown()}`);
      return this.result(null);
    } catch (error) {
      const problems =
        error instanceof ProblemFound
          ? error.message.split('\n')
          : [`the step threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`];
      return this.result({ step, action, problems });
    }
  }

  async dispose(): Promise<void> {
    await this.service?.close().catch(() => undefined);
    await this.upstreams?.close();
    await this.dropDatabase();
  }

  private result(failure: SimulationFailure | null): SimulationResult {
    return {
      seed: this.options.seed,
      steps: this.options.steps,
      jobConcurrency: this.options.jobConcurrency ?? 1,
      sequential: this.options.sequential ?? false,
      failure,
      trace: this.trace,
      stats: this.stats,
    };
  }

  private note(line: string): void {
    this.trace.push(line);
    this.options.onStep?.(line);
  }

  private get live(): SimulatedService {
    if (!this.service) throw new Error('no service is running');
    return this.service;
  }

  // ---------------------------------------------------------------- set-up

  /**
   * Three partners in India, on their sandbox wallets (granted at onboarding), and one
   * KYC-approved partner whose live orders go to the Reloadly and Setu simulators by route.
   */
  private async setUp(): Promise<void> {
    for (let i = 0; i < 3; i++) {
      const created = await this.expectStatus(
        this.live.admin('POST', '/partners', { name: `Simulated Partner ${i}`, corridor: 'IN' }),
        [201],
        'create partner',
      );
      const partnerId = created.body.partner_id as string;
      this.wallets.push({
        name: `p${i}/sandbox`,
        partnerId,
        environment: 'sandbox',
        token: created.body.sandbox_api_key,
      });
      await this.expectStatus(
        this.live.admin('PATCH', `/partners/${partnerId}/settings`, {
          environment: 'sandbox',
          rate_limit: 100_000,
          webhook_url: `https://hooks.example.com/sim/${i}`,
        }),
        [200],
        'configure',
      );
    }
    await this.setUpLive();
    await this.live.settle();
    await this.checkInvariants(Number.POSITIVE_INFINITY);
  }

  /** A KYC-approved partner with a funded live wallet, and the live routes of its products. */
  private async setUpLive(): Promise<void> {
    const created = await this.expectStatus(
      this.live.admin('POST', '/partners', { name: 'Simulated Live Partner', corridor: 'IN' }),
      [201],
      'create live partner',
    );
    const partnerId = created.body.partner_id as string;
    const approved = await this.expectStatus(
      this.live.admin('POST', `/partners/${partnerId}/kyc`, { status: 'approved' }),
      [200],
      'kyc',
    );
    this.liveWallet = { name: 'live/live', partnerId, environment: 'live', token: approved.body.live_api_key };
    await this.expectStatus(
      this.live.admin('PATCH', `/partners/${partnerId}/settings`, { environment: 'live', rate_limit: 100_000 }),
      [200],
      'configure live',
    );
    await this.expectStatus(
      this.live.admin(
        'POST',
        `/partners/${partnerId}/wallet-credits`,
        { environment: 'live', amount: '20000.00', reference: 'live funding' },
        { 'idempotency-key': `live-funding-${this.options.seed}` },
      ),
      [200],
      'fund live wallet',
    );
    for (const route of [
      { kind: 'operator', id: LIVE_OPERATOR, provider: 'reloadly', upstream_id: '1201' },
      { kind: 'biller', id: LIVE_BILLER, provider: 'setu', upstream_id: 'BESCOM000KAR01' },
    ])
      await this.expectStatus(
        this.live.admin('POST', '/routes', route, { 'x-operator-id': 'sim-ops' }),
        [200],
        `route ${route.kind} ${route.id}`,
      );
  }

  // ---------------------------------------------------------------- steps

  private async perform(action: Action): Promise<string> {
    switch (action) {
      case 'topup':
        return this.placeNew(this.scheduler.pick(this.wallets));
      case 'pay_bill':
        return this.payBill(this.scheduler.pick(this.wallets));
      case 'repeat_key':
        return this.repeatKey();
      case 'reuse_key_other_body':
        return this.reuseKeyWithOtherBody();
      case 'concurrent_same_key':
        return this.concurrentSameKey();
      case 'concurrent_two_wallets':
        return this.concurrentTwoWallets();
      case 'concurrent_same_wallet':
        return this.concurrentSameWallet();
      case 'operator_credit':
        return this.operatorCredit();
      case 'settle':
        await this.live.settle();
        return 'settle: projections and every due job';
      case 'run_due_jobs_once':
        return `run due jobs once: ${await this.live.runDueJobsOnce()} ran`;
      case 'clock_small':
        return this.advance(this.scheduler.int(1, 20) * SECOND);
      case 'clock_past_30s':
        return this.advance(31 * SECOND);
      case 'clock_past_5min':
        return this.advance(5 * MINUTE + SECOND);
      case 'clock_past_stuck':
        return this.advance(STUCK_AFTER_MS + SECOND);
      case 'resolve_held':
        return this.resolveHeld();
      case 'rebuild_projection':
        return this.rebuildProjection();
      case 'crash':
        await this.crashAndRestart();
        return 'crash between steps, restart on the same database';
      case 'crash_during_provider_call':
        return this.crashDuringProviderCall();
      case 'provider_outage':
        this.provider.outage = !this.provider.outage;
        return this.provider.outage ? 'upstream goes down' : 'upstream comes back';
      case 'live_topup':
        return this.liveTopup();
      case 'live_pay_bill':
        return this.livePayBill();
    }
  }

  /** A live topup through Reloadly's protocol (the simulator's outcome by the phone's suffix). */
  private async liveTopup(): Promise<string> {
    const wallet = this.liveWallet!;
    const key = this.newKey();
    const body = {
      operator_id: LIVE_OPERATOR,
      phone: `+91987654${this.scheduler.pick(LIVE_PHONE_SUFFIXES)}`,
      amount: this.scheduler.int(10, 300),
    };
    const use: KeyUse = { wallet, path: '/topup', body, orderId: null };
    const answer = await this.send(use, key);
    return `live topup ${body.phone} ${body.amount} key ${key}: ${this.record(key, use, answer, 'live topup')}`;
  }

  /** A live bill fetched and paid through Setu's protocol (the simulator's outcome by the consumer number's suffix). */
  private async livePayBill(): Promise<string> {
    const wallet = this.liveWallet!;
    const consumerNumber = `123456${this.scheduler.pick(LIVE_CONSUMER_SUFFIXES)}`;
    const bill = await this.live.request('POST', '/v1/partner/bill-info', {
      token: wallet.token,
      body: { biller_id: LIVE_BILLER, consumer_number: consumerNumber },
    });
    // 422: nothing due; 503: Setu's breaker, or a fetch that did not answer in time.
    this.expectAnswer(bill, [200, 422, 503], 'live bill-info');
    if (bill.status !== 200) return `live bill-info ${consumerNumber}: ${bill.status} ${bill.body?.error ?? ''}`;
    const key = this.newKey();
    const use: KeyUse = {
      wallet,
      path: '/pay-bill',
      body: { biller_id: LIVE_BILLER, consumer_number: consumerNumber, amount: Number(bill.body.amount) },
      orderId: null,
    };
    const answer = await this.send(use, key);
    return `live pay bill ${consumerNumber} ${bill.body.amount} key ${key}: ${this.record(key, use, answer, 'live pay-bill')}`;
  }

  private newKey(): string {
    this.keyCounter += 1;
    return `sim-${this.options.seed}-key-${this.keyCounter}`;
  }

  /** Mostly valid amounts; now and then one with three decimals, one below the minimum, one above most balances. */
  private drawAmount(): number {
    const kind = this.scheduler.weighted({ normal: 85, three_decimals: 5, too_small: 4, large: 6 });
    if (kind === 'three_decimals') return this.scheduler.int(10, 300) + 0.125;
    if (kind === 'too_small') return 5;
    if (kind === 'large') return this.scheduler.int(1500, 4900);
    return this.scheduler.int(10, 300) + this.scheduler.int(0, 99) / 100;
  }

  private topupBody(): Record<string, unknown> {
    return {
      operator_id: this.scheduler.pick(OPERATORS),
      phone: `+9198765${String(this.scheduler.int(0, 99_999)).padStart(5, '0')}`,
      amount: this.drawAmount(),
      ...(this.scheduler.chance(0.5) ? { reference: `ref-${this.keyCounter}` } : {}),
    };
  }

  private send(use: KeyUse, key: string): Promise<Answer> {
    return this.live.request('POST', `/v1/partner${use.path}`, {
      token: use.wallet.token,
      body: use.body,
      headers: { 'idempotency-key': key },
    });
  }

  /** Records a placement's answer; a 200 binds the key to its order, for good. */
  private record(key: string, use: KeyUse, answer: Answer, what: string): string {
    // A live order may also meet 503 before any debit (its provider's breaker open, a fetch unanswered).
    this.expectAnswer(answer, [200, 402, 409, 422, 400, ...(use.wallet.environment === 'live' ? [503] : [])], what);
    if (answer.status === 200) {
      const orderId = answer.body.order_id as string;
      if (use.orderId && use.orderId !== orderId)
        throw new ProblemFound(`${what}: key ${key} answered order ${orderId}, it was bound to ${use.orderId}`);
      use.orderId = orderId;
      this.accepted.add(orderId);
      if (use.wallet.environment === 'live') this.liveOrders.add(orderId);
    }
    this.keys.set(key, use);
    return `${answer.status}${answer.status === 200 ? ` ${answer.body.order_id}` : ` ${answer.body?.error ?? ''}`}`;
  }

  private async placeNew(wallet: Wallet): Promise<string> {
    const key = this.newKey();
    const use: KeyUse = { wallet, path: '/topup', body: this.topupBody(), orderId: null };
    const answer = await this.send(use, key);
    return `topup ${wallet.name} ${use.body.amount} key ${key}: ${this.record(key, use, answer, 'topup')}`;
  }

  private async payBill(wallet: Wallet): Promise<string> {
    const consumerNumber = `98765${String(this.scheduler.int(0, 99_999)).padStart(5, '0')}`;
    const bill = await this.live.request('POST', '/v1/partner/bill-info', {
      token: wallet.token,
      body: { biller_id: BILLER, consumer_number: consumerNumber },
    });
    this.expectAnswer(bill, [200], 'bill-info');
    const key = this.newKey();
    const use: KeyUse = {
      wallet,
      path: '/pay-bill',
      body: { biller_id: BILLER, consumer_number: consumerNumber, amount: Number(bill.body.amount) },
      orderId: null,
    };
    const answer = await this.send(use, key);
    return `pay bill ${wallet.name} ${bill.body.amount} key ${key}: ${this.record(key, use, answer, 'pay-bill')}`;
  }

  /** The same key and body again: the first 200 answer comes back (a replay), or, if it was refused, a fresh try. */
  private async repeatKey(): Promise<string> {
    const key = this.pickKey(() => true);
    if (!key) return this.placeNew(this.scheduler.pick(this.wallets));
    const use = this.keys.get(key)!;
    const answer = await this.send(use, key);
    if (use.orderId) {
      this.expectAnswer(answer, [200], `repeat of key ${key}`);
      if (answer.body.order_id !== use.orderId)
        throw new ProblemFound(`repeat of key ${key} answered order ${answer.body.order_id}, first ${use.orderId}`);
      if (answer.headers['idempotent-replay'] !== 'true')
        throw new ProblemFound(`repeat of key ${key} was not marked Idempotent-Replay`);
    }
    return `repeat key ${key} on ${use.wallet.name}: ${this.record(key, use, answer, 'repeat')}`;
  }

  private async reuseKeyWithOtherBody(): Promise<string> {
    const key = this.pickKey((use) => use.orderId !== null && use.path === '/topup');
    if (!key) return this.placeNew(this.scheduler.pick(this.wallets));
    const use = this.keys.get(key)!;
    const other = { ...use.body, amount: (use.body.amount as number) + 1 };
    const answer = await this.live.request('POST', `/v1/partner${use.path}`, {
      token: use.wallet.token,
      body: other,
      headers: { 'idempotency-key': key },
    });
    this.expectAnswer(answer, [409], `key ${key} with another body`);
    if (answer.body?.error !== 'idempotency_conflict')
      throw new ProblemFound(`key ${key} with another body: ${answer.body?.error}, expected idempotency_conflict`);
    return `key ${key} with another body: 409`;
  }

  /** Two or three identical requests under one new key, started together in a fixed order. */
  private async concurrentSameKey(): Promise<string> {
    const wallet = this.scheduler.pick(this.wallets);
    const key = this.newKey();
    const use: KeyUse = { wallet, path: '/topup', body: this.topupBody(), orderId: null };
    const copies = this.scheduler.int(2, 3);
    const answers = await Promise.all(Array.from({ length: copies }, () => this.send(use, key)));
    const orders = new Set(
      answers.filter((answer) => answer.status === 200).map((answer) => answer.body.order_id as string),
    );
    if (orders.size > 1)
      throw new ProblemFound(`concurrent requests under key ${key} got different orders: ${[...orders].join(', ')}`);
    const summary = answers.map((answer) => this.record(key, use, answer, `concurrent copy under key ${key}`));
    return `${copies} concurrent copies, key ${key} on ${wallet.name}: ${summary.join(' | ')}`;
  }

  private async concurrentTwoWallets(): Promise<string> {
    const first = this.scheduler.pick(this.wallets);
    const second = this.scheduler.pick(this.wallets.filter((wallet) => wallet !== first));
    const uses = [first, second].map((wallet): [string, KeyUse] => [
      this.newKey(),
      { wallet, path: '/topup', body: this.topupBody(), orderId: null },
    ]);
    const answers = await Promise.all(uses.map(([key, use]) => this.send(use, key)));
    const summary = uses.map(
      ([key, use], index) =>
        `${use.wallet.name} ${use.body.amount}: ${this.record(key, use, answers[index], 'concurrent topup')}`,
    );
    return `concurrent topups on two wallets: ${summary.join(' | ')}`;
  }

  /** Two valid topups at once on a wallet whose balance covers both: both must be accepted, whichever runs first. */
  private async concurrentSameWallet(): Promise<string> {
    const wallet = this.scheduler.pick(this.wallets);
    const amounts = [this.scheduler.int(10, 150), this.scheduler.int(10, 150)];
    const balance = await this.balanceFromLog(wallet);
    const uses = amounts.map((amount): [string, KeyUse] => [
      this.newKey(),
      { wallet, path: '/topup', body: { ...this.topupBody(), amount }, orderId: null },
    ]);
    const answers = await Promise.all(uses.map(([key, use]) => this.send(use, key)));
    const covered = balance !== null && !balance.isLessThan(Money.parse(String(amounts[0] + amounts[1]), 'INR')!);
    if (covered)
      for (const answer of answers)
        this.expectAnswer(
          answer,
          [200],
          `concurrent topups of ${amounts.join(' and ')} on ${wallet.name} holding ${balance?.toDecimal()}`,
        );
    const summary = uses.map(
      ([key, use], index) => `${use.body.amount}: ${this.record(key, use, answers[index], 'concurrent topup')}`,
    );
    return `concurrent topups on ${wallet.name} (balance ${balance?.toDecimal() ?? 'none'}): ${summary.join(' | ')}`;
  }

  private async balanceFromLog(wallet: Wallet): Promise<Money | null> {
    const ledger = await walkLedger(this.live.get<EventStore>(EVENT_STORE));
    for (const facts of ledger.wallets.values())
      if (facts.partnerId === wallet.partnerId && facts.environment === wallet.environment) return facts.balance;
    return null;
  }

  /** An operator credit with an Idempotency-Key; sometimes a retry of an earlier one, which must credit nothing more. */
  private async operatorCredit(): Promise<string> {
    const retry =
      this.creditKeys.length > 0 && this.scheduler.chance(0.3) ? this.scheduler.pick(this.creditKeys) : null;
    const credit = retry ?? {
      wallet: this.scheduler.pick(this.wallets),
      key: `credit-${this.newKey()}`,
      body: { amount: `${this.scheduler.int(1, 10) * 100}.00`, reference: `top up ${this.keyCounter}` },
      creditId: null,
    };
    const answer = await this.live.admin(
      'POST',
      `/partners/${credit.wallet.partnerId}/wallet-credits`,
      { environment: credit.wallet.environment, ...credit.body },
      { 'idempotency-key': credit.key },
    );
    this.expectAnswer(answer, [200], 'operator credit');
    const creditId = JSON.stringify(answer.body);
    if (retry) {
      if (answer.headers['idempotent-replay'] !== 'true' || creditId !== retry.creditId)
        throw new ProblemFound(
          `a retried credit under ${retry.key} was not its first answer: ${creditId} vs ${retry.creditId}`,
        );
    } else {
      credit.creditId = creditId;
      this.creditKeys.push(credit);
    }
    return `${retry ? 'retried ' : ''}operator credit ${credit.body.amount} to ${credit.wallet.name} key ${credit.key}: 200`;
  }

  private async advance(ms: number): Promise<string> {
    this.clock.advance(ms);
    return `clock +${ms / SECOND} s (now ${this.clock.now().toISOString()})`;
  }

  /** An operator resolves a held order; failing one the provider said succeeded is refused. */
  private async resolveHeld(): Promise<string> {
    const held = await this.expectStatus(this.live.admin('GET', '/orders?held=true&limit=1000'), [200], 'held orders');
    const orders = (held.body.orders ?? held.body.data ?? []) as { order_id: string }[];
    if (orders.length === 0) return 'resolve held: none held';
    const orderId = this.scheduler.pick(orders).order_id;
    const outcome = this.scheduler.pick(['success', 'failed'] as const);
    return this.resolve(orderId, outcome);
  }

  private async resolve(orderId: string, outcome: 'success' | 'failed'): Promise<string> {
    const answer = await this.live.admin('POST', `/orders/${orderId}/resolve`, {
      outcome,
      reason: 'simulated operator decision',
    });
    this.expectAnswer(answer, [200, 409], `resolve ${orderId} ${outcome}`);
    if (answer.status === 409) {
      const fold = await foldLog(this.live.get<EventStore>(EVENT_STORE));
      const late = fold.orders.get(orderId)?.state.lateAnswer;
      // A live order's provider is asked first (decision 0118): a resolution its answer does not allow is refused.
      const providerSaidOtherwise = String(answer.body.detail ?? '').startsWith('asked just now, the provider answers');
      if (!(outcome === 'failed' && late?.outcome === 'succeeded') && !providerSaidOtherwise)
        throw new ProblemFound(
          `resolving held order ${orderId} as ${outcome} was refused: ${JSON.stringify(answer.body)}`,
        );
    }
    return `resolve ${orderId} as ${outcome}: ${answer.status}`;
  }

  private async rebuildProjection(): Promise<string> {
    const listed = await this.expectStatus(this.live.admin('GET', '/projections'), [200], 'projections');
    const names = (listed.body.projections as { name: string; rebuildable: boolean }[])
      .filter((projection) => projection.rebuildable)
      .map((projection) => projection.name);
    const name = this.scheduler.pick(names);
    const started = await this.expectStatus(
      this.live.admin('POST', `/projections/${name}/rebuild`),
      [202, 200],
      `rebuild ${name}`,
    );
    const rebuildId = started.body.rebuild_id as string;
    // The rebuild runs on this process's event loop; wait for its end (bounded), not for time to pass.
    for (let polls = 0; polls < 3000; polls++) {
      const state = await this.expectStatus(
        this.live.admin('GET', `/projections/rebuilds/${rebuildId}`),
        [200],
        'rebuild progress',
      );
      if (state.body.state === 'failed') throw new ProblemFound(`rebuild of ${name} failed: ${state.body.error}`);
      if (state.body.state !== 'running') return `rebuild ${name}: ${state.body.state}`;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new ProblemFound(`rebuild of ${name} did not finish within 30 s`);
  }

  private async crashAndRestart(): Promise<void> {
    await this.live.crash();
    this.service = await SimulatedService.start(this.databaseUrl, this.doubles, this.options.jobConcurrency);
  }

  /** The service dies while a provider call is in flight: the upstream got the call, the service never saw its answer. */
  private async crashDuringProviderCall(): Promise<string> {
    const reached = this.provider.hangNextCall().then(() => 'hung' as const);
    const settled = this.live.settle().then(
      () => 'settled' as const,
      () => 'settled' as const,
    );
    const first = await Promise.race([reached, settled]);
    if (first === 'settled') {
      this.provider.cancelHang();
      return 'crash during a provider call: no provider call was due (settled instead)';
    }
    await this.crashAndRestart();
    return 'crash during a provider call: restart on the same database';
  }

  // ---------------------------------------------------------------- wind-down and checks

  /** The upstream comes back, time goes by, operators resolve what is held: every order must end final. */
  private async windDown(): Promise<string> {
    this.provider.outage = false;
    // Time enough for held orders the upstream decides late to be found by their look-ups, before anyone resolves them.
    this.clock.advance(LATE_DECISIONS_MS);
    for (let round = 1; round <= 20; round++) {
      await this.live.settle();
      const held = await this.expectStatus(
        this.live.admin('GET', '/orders?held=true&limit=1000'),
        [200],
        'held orders',
      );
      for (const order of (held.body.orders ?? held.body.data ?? []) as { order_id: string }[]) {
        const outcome = this.scheduler.pick(['success', 'failed'] as const);
        const line = await this.resolve(order.order_id, outcome);
        // Refused: the provider (or its late answer) says otherwise; the operator then follows it.
        if (line.endsWith('409')) await this.resolve(order.order_id, outcome === 'success' ? 'failed' : 'success');
      }
      await this.live.settle();
      const fold = await foldLog(this.live.get<EventStore>(EVENT_STORE));
      const open = [...fold.orders.values()].filter((order) => !isFinal(order));
      if (open.length === 0) {
        this.stats.held_then_decided_by_provider = [...fold.orders.values()].filter(
          (order) => order.state.heldAt !== null && isFinal(order) && !order.state.resolvedManually,
        ).length;
        await this.checkInvariants(0);
        return `wind-down: every order final after ${round} round(s), verify clean`;
      }
      this.clock.advance(STUCK_AFTER_MS + MINUTE);
    }
    const fold = await foldLog(this.live.get<EventStore>(EVENT_STORE));
    const open = [...fold.orders.values()].filter((order) => !isFinal(order));
    throw new ProblemFound(
      open
        .map(
          (order) =>
            `order ${order.orderId} is still ${order.state.status} (refunds ${order.refunds}) after the wind-down`,
        )
        .join('\n'),
    );
  }

  /**
   * After every step: the six money invariants (`verify`), the orders read model against the fold
   * of the log, and every order answered 200 still in the log.
   */
  private async checkInvariants(refundGraceMs: number): Promise<void> {
    const problems: string[] = [];
    const report = await verifyMoneyInvariants(this.live, refundGraceMs);
    for (const breach of report.breaches)
      problems.push(`invariant ${breach.invariant} (${breach.name}): ${breach.detail}`);
    if (refundGraceMs === 0)
      for (const waiting of report.inProgress) problems.push(`still in progress at the end: ${waiting}`);
    const fold: LogFold = await foldLog(this.live.get<EventStore>(EVENT_STORE));
    await catchUpReadModels(this.live, fold.lastPosition);
    problems.push(...(await compareOrdersReadModel(this.live, fold)));
    problems.push(...(await compareOrderReaders(this.live, fold)));
    for (const orderId of this.accepted)
      if (!fold.orders.has(orderId)) problems.push(`order ${orderId} was answered 200 but has no debit in the log`);
    for (const orderId of this.liveOrders) {
      const upstream = this.upstreams?.upstreamCountOf(orderId) ?? 0;
      if (upstream > 1) problems.push(`live order ${orderId} was paid ${upstream} times upstream`);
    }
    if (problems.length > 0) throw new ProblemFound(problems.join('\n'));
  }

  private pickKey(filter: (use: KeyUse) => boolean): string | null {
    const candidates = [...this.keys].filter(([, use]) => filter(use)).map(([key]) => key);
    return candidates.length === 0 ? null : this.scheduler.pick(candidates);
  }

  private expectAnswer(answer: Answer, statuses: number[], what: string): void {
    if (!statuses.includes(answer.status))
      throw new ProblemFound(
        `${what}: answered ${answer.status} ${JSON.stringify(answer.body)}, expected ${statuses.join(' or ')}`,
      );
  }

  private async expectStatus(pending: Promise<Answer>, statuses: number[], what: string): Promise<Answer> {
    const answer = await pending;
    this.expectAnswer(answer, statuses, what);
    return answer;
  }
}

function isFinal(order: { state: { status: string }; refunds: number }): boolean {
  return order.state.status === 'SUCCESS' || (order.state.status === 'FAILED' && order.refunds === 1);
}
