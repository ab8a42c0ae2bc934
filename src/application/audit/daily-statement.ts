import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { currencyOf } from '../../domain/corridor/corridor';
import { Money } from '../../domain/money/money';
import { Environment } from '../../domain/shared/environment';
import { EVENT_STORE, EventStore } from '../ports/event-store.port';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';
import { DAY_MS, startOfDay, walletLedger } from './wallet-ledger';

export class DailyStatement extends Query<Record<string, unknown>> {
  constructor(
    readonly partnerId: string,
    readonly environment: Environment,
    /** YYYY-MM-DD, a UTC day. */
    readonly date: string,
  ) {
    super();
  }
}

/**
 * A wallet's day: opening balance, debits, refunds, credits and closing balance, and whether they
 * add up. Each balance is folded from the wallet's events and compared with the balance the last
 * event before it records, so a ledger whose events disagree with their own sums is caught here.
 */
@QueryHandler(DailyStatement)
export class DailyStatementHandler implements IQueryHandler<DailyStatement> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
  ) {}

  async execute({ partnerId, environment, date }: DailyStatement): Promise<Record<string, unknown>> {
    const dayStart = startOfDay(date);
    if (dayStart === null) throw new ServiceError('validation_failed', 'date: a date as YYYY-MM-DD');
    const dayEnd = dayStart + DAY_MS;
    const partner = await this.readModels.partner(partnerId);
    if (!partner) throw new ServiceError('not_found', `no partner ${partnerId}`);
    const currency = currencyOf(partner.corridor);
    const zero = Money.zero(currency);

    let opening = zero;
    let openingRecorded = zero.toDecimal();
    let closingRecorded: string | null = null;
    let debits = zero;
    let refunds = zero;
    let credits = zero;
    const counts = { debits: 0, refunds: 0, credits: 0 };
    let mismatches = 0;
    for await (const entry of walletLedger(this.store, partnerId, environment, currency)) {
      const at = Date.parse(entry.occurredAt);
      if (at >= dayEnd) continue;
      if (entry.balanceAfter !== entry.runningBalance.toDecimal()) mismatches += 1;
      if (at < dayStart) {
        opening = opening.plus(entry.signedAmount);
        openingRecorded = entry.balanceAfter;
        continue;
      }
      closingRecorded = entry.balanceAfter;
      if (entry.eventType === 'WalletDebited') {
        debits = debits.plus(entry.amount);
        counts.debits += 1;
      } else if (entry.eventType === 'WalletRefunded') {
        refunds = refunds.plus(entry.amount);
        counts.refunds += 1;
      } else {
        credits = credits.plus(entry.amount);
        counts.credits += 1;
      }
    }
    const closing = opening.minus(debits).plus(refunds).plus(credits);
    const checks = {
      opening_matches_recorded_balance: opening.toDecimal() === openingRecorded,
      closing_matches_recorded_balance: closing.toDecimal() === (closingRecorded ?? openingRecorded),
      every_balance_after_matches_the_fold: mismatches === 0,
    };
    return {
      partner_id: partnerId,
      environment,
      currency,
      date,
      opening_balance: opening.toDecimal(),
      debits: debits.toDecimal(),
      refunds: refunds.toDecimal(),
      credits: credits.toDecimal(),
      closing_balance: closing.toDecimal(),
      counts,
      adds_up: Object.values(checks).every(Boolean),
      checks,
    };
  }
}
