import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Currency } from '../../domain/money/currency';
import { Environment } from '../../domain/shared/environment';
import { CLOCK, Clock } from '../ports/clock.port';
import { EVENT_STORE, EventStore } from '../ports/event-store.port';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';
import { StatementDay, statementHorizon, walletStatementDays } from './statement-days';
import { startOfDay } from './wallet-ledger';

/** A wallet's day, and whether it adds up. */
export interface DailyStatementResource extends StatementDayFields {
  partner_id: string;
  environment: Environment;
  currency: Currency;
  date: string;
  as_of: string;
  complete: boolean;
}

export class DailyStatement extends Query<DailyStatementResource> {
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
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ partnerId, environment, date }: DailyStatement): Promise<DailyStatementResource> {
    const dayStart = startOfDay(date);
    if (dayStart === null) throw new ServiceError('validation_failed', 'date: a date as YYYY-MM-DD');
    const { asOf, complete } = statementHorizon(dayStart, this.clock.now(), 'date');
    const {
      currency,
      days: [day],
    } = await walletStatementDays(
      { store: this.store, readModels: this.readModels },
      partnerId,
      environment,
      dayStart,
      1,
    );
    return { partner_id: partnerId, environment, currency, date, as_of: asOf, complete, ...statementDayFields(day) };
  }
}

/** A day as the statements print it: decimal strings, counts, and whether it adds up. */
export interface StatementDayFields {
  opening_balance: string;
  debits: string;
  refunds: string;
  credits: string;
  closing_balance: string;
  counts: StatementDay['counts'];
  adds_up: boolean;
  checks: StatementDay['checks'];
}

export function statementDayFields(day: StatementDay): StatementDayFields {
  return {
    opening_balance: day.opening.toDecimal(),
    debits: day.debits.toDecimal(),
    refunds: day.refunds.toDecimal(),
    credits: day.credits.toDecimal(),
    closing_balance: day.closing.toDecimal(),
    counts: day.counts,
    adds_up: Object.values(day.checks).every(Boolean),
    checks: day.checks,
  };
}
