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
export interface WalletDayStatement {
  partnerId: string;
  environment: Environment;
  currency: Currency;
  /** When the statement was folded; with `complete` false the day (today, UTC) may still change. */
  asOf: string;
  complete: boolean;
  day: StatementDay;
}

export class DailyStatement extends Query<WalletDayStatement> {
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

  async execute({ partnerId, environment, date }: DailyStatement): Promise<WalletDayStatement> {
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
    return { partnerId, environment, currency, asOf, complete, day };
  }
}
