import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../ports/clock.port';
import { EVENT_STORE, EventStore } from '../ports/event-store.port';
import { EVENT_LOG_DIAGNOSTICS, EventLogDiagnostics } from '../ports/event-log-diagnostics.port';
import { IDEMPOTENCY_STORE, IDEMPOTENCY_WINDOW_MS, IdempotencyStore } from '../ports/idempotency-store.port';
import { PROJECTION_BARRIER, ProjectionBarrier, READ_MODELS, ReadModels } from '../ports/read-models.port';
import { KEY_CAP_WINDOW_MS } from '../../domain/partner/scoped-key';
import { Money } from '../../domain/money/money';
import { Environment } from '../../domain/shared/environment';
import { keySpentWithin } from '../../domain/wallet/wallet.decider';
import { WalletCommandProcessor } from '../wallets/wallet-command-processor';
import { KeyTermsFacts, LedgerWalk, OrderLedgerFacts, WalletFacts, walkLedger } from './ledger-walk';

export interface Breach {
  invariant: number;
  name: string;
  detail: string;
}

/** A restricted key's spend of the last 24 hours (refunds given back), folded from the log. */
export interface KeySpend {
  partnerId: string;
  environment: Environment;
  keyId: string;
  spentLast24h: Money;
  dailyMax: string | null;
}

export interface VerificationReport {
  ok: boolean;
  checked: { events: number; wallets: number; orders: number };
  breaches: Breach[];
  /** Every restricted key that placed orders in the last 24 hours, with its spend as the log gives it. */
  keySpends: KeySpend[];
  /** Transitional states that are fine now but would be breaches if they lasted (a refund not yet made). */
  inProgress: string[];
}

export class VerifyMoneyInvariants extends Query<VerificationReport> {
  constructor(
    /** Failed orders younger than this may still be waiting for their refund job. */
    readonly refundGraceMs = 5 * 60_000,
    /** Hears the events walked so far and the log's length when the walk began. */
    readonly progress?: (eventsWalked: number, eventsInLog: number) => void,
  ) {
    super();
  }
}

const KEY_LOOKUPS_AT_ONCE = 500;

const NAMES: Record<number, string> = {
  1: 'balance never below zero',
  2: 'balance equals the fold of the wallet events',
  3: 'every debited order reaches exactly one outcome',
  4: 'refunds only after a failure, never twice',
  5: 'one idempotency key moves money at most once',
  6: 'no refused request moved money',
  7: 'restricted keys stay within their caps',
};

/** Checks the six money invariants of docs/architecture.md over the whole event log and the read models. */
@QueryHandler(VerifyMoneyInvariants)
export class VerifyMoneyInvariantsHandler implements IQueryHandler<VerifyMoneyInvariants, VerificationReport> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(EVENT_LOG_DIAGNOSTICS) private readonly diagnostics: EventLogDiagnostics,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(PROJECTION_BARRIER) private readonly barrier: ProjectionBarrier,
    @Inject(IDEMPOTENCY_STORE) private readonly idempotency: IdempotencyStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly wallets: WalletCommandProcessor,
  ) {}

  async execute({ refundGraceMs, progress }: VerifyMoneyInvariants): Promise<VerificationReport> {
    // The read models must have applied the log's last event as walked: walking to everything committed when the
    // check began (not waiting for the head first) keeps an event made readable in between out of the walk, which
    // would otherwise look like a breach.
    const through = await this.diagnostics.committedHeadPosition();
    const eventsInLog = progress ? await this.diagnostics.countEvents(null) : 0;
    const ledger = await walkLedger(this.store, {
      through,
      onPage: progress && ((walked) => progress(walked, eventsInLog)),
    });
    await this.barrier.waitFor(ledger.lastPosition);
    const breaches: Breach[] = [];
    const inProgress: string[] = [];
    const breach = (invariant: number, detail: string) => breaches.push({ invariant, name: NAMES[invariant], detail });

    for (const wallet of ledger.wallets.values()) this.checkWallet(wallet, breach);
    await this.checkBalancesMatchReadModel(ledger.wallets, breach);
    const now = this.clock.now().getTime();
    for (const [orderId, order] of ledger.orders)
      this.checkOrder(orderId, order, now, refundGraceMs, breach, inProgress);
    this.checkIdempotencyKeys(ledger.orders, breach);
    await this.checkAcceptedRequests(ledger.orders, now, breach);
    for (const wallet of ledger.wallets.values()) this.checkKeyCaps(wallet, ledger.keys, breach);
    const keySpends = await this.keySpends(ledger, new Date(now), breach);

    return {
      ok: breaches.length === 0,
      checked: { events: ledger.events, wallets: ledger.wallets.size, orders: ledger.orders.size },
      breaches,
      keySpends,
      inProgress,
    };
  }

  /** Every order of a restricted key within its per-order maximum, and its rolling 24 hours within the daily one. */
  private checkKeyCaps(
    wallet: WalletFacts,
    keys: Map<string, KeyTermsFacts>,
    breach: (invariant: number, detail: string) => void,
  ): void {
    for (const debit of wallet.scopedDebits) {
      const terms = keys.get(debit.keyId);
      if (!terms || terms.partnerId !== wallet.partnerId || terms.environment !== wallet.environment) {
        breach(
          7,
          `order ${debit.orderId} was placed with key ${debit.keyId}, which this wallet's partner never created`,
        );
        continue;
      }
      const cap = (text: string | null): Money | null => (text === null ? null : Money.parse(text, terms.currency));
      const perOrderMax = cap(terms.perOrderMax);
      const dailyMax = cap(terms.dailyMax);
      if (perOrderMax && perOrderMax.isLessThan(debit.amount))
        breach(
          7,
          `order ${debit.orderId} of ${debit.amount.toDecimal()} is above key ${debit.keyId}'s per-order maximum of ${perOrderMax.toDecimal()}`,
        );
      if (dailyMax && dailyMax.isLessThan(debit.spentBefore.plus(debit.amount)))
        breach(
          7,
          `key ${debit.keyId} had spent ${debit.spentBefore.toDecimal()} in the 24 hours before order ${debit.orderId}; its ${debit.amount.toDecimal()} is above the daily maximum of ${dailyMax.toDecimal()}`,
        );
    }
  }

  /**
   * Each restricted key's spend of the last 24 hours, folded from the log (never from a snapshot),
   * and compared with the figure the service decides caps against (and lists as `spent_last_24h`):
   * when the wallet has not moved since the walk, the two must be equal.
   */
  private async keySpends(
    ledger: LedgerWalk,
    now: Date,
    breach: (invariant: number, detail: string) => void,
  ): Promise<KeySpend[]> {
    const since = now.getTime() - KEY_CAP_WINDOW_MS;
    const spends: KeySpend[] = [];
    for (const wallet of ledger.wallets.values()) {
      const recent = new Set(
        wallet.state.keySpends
          .filter((spend) => new Date(spend.placedAt).getTime() > since)
          .map((spend) => spend.keyId),
      );
      if (recent.size === 0) continue;
      const served = await this.wallets.currentWithRevision(wallet.partnerId, wallet.environment);
      const comparable = served.revision === wallet.revision;
      for (const keyId of [...recent].sort()) {
        const fromLog = keySpentWithin(wallet.state, keyId, now.toISOString(), wallet.currency);
        if (comparable) {
          const decidedOn = keySpentWithin(served.state, keyId, now.toISOString(), wallet.currency);
          if (!decidedOn.equals(fromLog))
            breach(
              7,
              `key ${keyId}: the service counts ${decidedOn.toDecimal()} spent in the last 24 hours, the log ${fromLog.toDecimal()}`,
            );
        }
        spends.push({
          partnerId: wallet.partnerId,
          environment: wallet.environment,
          keyId,
          spentLast24h: fromLog,
          dailyMax: ledger.keys.get(keyId)?.dailyMax ?? null,
        });
      }
    }
    return spends;
  }

  private checkWallet(wallet: WalletFacts, breach: (invariant: number, detail: string) => void): void {
    const name = `${wallet.partnerId}/${wallet.environment}`;
    if (wallet.wentNegativeAt) breach(1, `wallet ${name} went below zero at event ${wallet.wentNegativeAt}`);
    for (const eventId of wallet.balanceAfterMismatches)
      breach(2, `wallet ${name}: event ${eventId} records a balance_after that differs from the fold`);
  }

  private async checkBalancesMatchReadModel(
    wallets: Map<string, WalletFacts>,
    breach: (invariant: number, detail: string) => void,
  ): Promise<void> {
    const projected = new Map(
      (await this.readModels.allBalances()).map((balance) => [`${balance.partnerId}/${balance.environment}`, balance]),
    );
    for (const wallet of wallets.values()) {
      const name = `${wallet.partnerId}/${wallet.environment}`;
      const shown = projected.get(name);
      if (!shown || shown.available !== wallet.balance.toDecimal()) {
        breach(
          2,
          `wallet ${name}: read model shows ${shown?.available ?? 'nothing'}, events fold to ${wallet.balance.toDecimal()}`,
        );
      }
      projected.delete(name);
    }
    for (const name of projected.keys())
      breach(2, `read model has a balance for ${name} but the log has no such wallet`);
  }

  private checkOrder(
    orderId: string,
    order: OrderLedgerFacts,
    now: number,
    refundGraceMs: number,
    breach: (invariant: number, detail: string) => void,
    inProgress: string[],
  ): void {
    if (order.debits.length === 0) {
      if (order.refunds.length > 0) breach(4, `order ${orderId} was refunded but never debited`);
      if (order.settled + order.failed > 0) breach(3, `order ${orderId} has an outcome but no debit`);
      return;
    }
    if (order.debits.length > 1) breach(5, `order ${orderId} was debited ${order.debits.length} times`);
    if (order.settled + order.failed > 1)
      breach(3, `order ${orderId} has ${order.settled} successes and ${order.failed} failures`);
    if (order.refunds.length > 1) breach(4, `order ${orderId} was refunded ${order.refunds.length} times`);
    if (order.refunds.length > 0 && order.failed === 0)
      breach(4, `order ${orderId} was refunded without an upstream failure or an operator decision`);
    if (order.failedOnAnAttempt !== null)
      breach(
        4,
        `order ${orderId} was failed on one attempt (${order.failedOnAnAttempt}) after an earlier one may have reached the provider`,
      );
    if (order.settled > 0 && order.refunds.length > 0) breach(4, `order ${orderId} succeeded and was refunded`);
    const debit = order.debits[0];
    for (const refund of order.refunds) {
      if (!refund.equals(debit.amount))
        breach(4, `order ${orderId} refunded ${refund.toDecimal()} of a ${debit.amount.toDecimal()} debit`);
    }
    if (order.failed > 0 && order.refunds.length === 0) {
      const failedFor = order.failedAt ? now - new Date(order.failedAt).getTime() : Infinity;
      if (failedFor <= refundGraceMs) inProgress.push(`order ${orderId} failed and awaits its refund`);
      else breach(3, `order ${orderId} failed but was never refunded`);
    }
  }

  private checkIdempotencyKeys(
    orders: Map<string, OrderLedgerFacts>,
    breach: (invariant: number, detail: string) => void,
  ): void {
    const byKey = new Map<string, { orderId: string; placedAt: number }[]>();
    for (const [orderId, order] of orders) {
      for (const debit of order.debits) {
        const scope = `${debit.partnerId}/${debit.environment}/${debit.idempotencyKey}`;
        const uses = byKey.get(scope) ?? [];
        uses.push({ orderId, placedAt: new Date(debit.placedAt).getTime() });
        byKey.set(scope, uses);
      }
    }
    for (const [scope, uses] of byKey) {
      uses.sort((a, b) => a.placedAt - b.placedAt);
      for (let i = 1; i < uses.length; i++) {
        if (uses[i].placedAt - uses[i - 1].placedAt < IDEMPOTENCY_WINDOW_MS) {
          breach(
            5,
            `idempotency key ${scope} moved money for orders ${uses[i - 1].orderId} and ${uses[i].orderId} within 24 h`,
          );
        }
      }
    }
  }

  /**
   * A debit inside the idempotency window must belong to the request the key still records as
   * answered 200. Keys are looked up many at a time: the store shares statements between them.
   */
  private async checkAcceptedRequests(
    orders: Map<string, OrderLedgerFacts>,
    now: number,
    breach: (invariant: number, detail: string) => void,
  ): Promise<void> {
    const recent = [...orders].flatMap(([orderId, order]) =>
      order.debits
        .filter((debit) => now - new Date(debit.placedAt).getTime() < IDEMPOTENCY_WINDOW_MS)
        .map((debit) => ({ orderId, debit })),
    );
    for (let start = 0; start < recent.length; start += KEY_LOOKUPS_AT_ONCE) {
      const chunk = recent.slice(start, start + KEY_LOOKUPS_AT_ONCE);
      const records = await Promise.all(
        chunk.map(({ debit }) =>
          this.idempotency.lookup({
            partnerId: debit.partnerId,
            environment: debit.environment,
            key: debit.idempotencyKey,
          }),
        ),
      );
      chunk.forEach(({ orderId, debit }, index) => {
        const record = records[index];
        if (!record || record.orderId !== orderId) {
          breach(
            6,
            `order ${orderId} moved money but its request (key ${debit.idempotencyKey}) holds no accepted answer`,
          );
        } else if (record.statusCode !== null && record.statusCode !== 200) {
          breach(6, `order ${orderId} moved money but its request was answered ${record.statusCode}`);
        }
      });
    }
  }
}
