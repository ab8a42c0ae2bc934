import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Currency } from '../../domain/money/currency';
import { Money } from '../../domain/money/money';
import { Environment } from '../../domain/shared/environment';
import { CLOCK, Clock } from '../ports/clock.port';
import { EVENT_STORE, EventStore } from '../ports/event-store.port';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';
import { StatementDay, StatementFigures, statementHorizon, walletStatementDays } from './statement-days';
import { DAY_MS, startOfDay } from './wallet-ledger';

/** A year and a day: a leap year's statement fits, a runaway range does not. */
export const MAX_STATEMENT_DAYS = 366;

/** A wallet's statement over consecutive UTC days: the period's figures, and each day's. */
export interface WalletPeriodStatement extends StatementFigures {
  partnerId: string;
  partnerName: string;
  environment: Environment;
  currency: Currency;
  from: string;
  to: string;
  /** When the statement was folded; with `complete` false the last day (today, UTC) may still change. */
  asOf: string;
  complete: boolean;
  days: StatementDay[];
}

export class PeriodStatement extends Query<WalletPeriodStatement> {
  constructor(
    readonly partnerId: string,
    readonly environment: Environment,
    /** YYYY-MM-DD, the first UTC day. */
    readonly from: string,
    /** YYYY-MM-DD, the last UTC day, included. */
    readonly to: string,
    /** Hears the wallet's events folded so far and the stream's length when the fold began. */
    readonly progress?: (eventsRead: number, eventsInStream: number) => void,
  ) {
    super();
  }
}

/**
 * A wallet's statement over consecutive UTC days, folded from the event log in one pass: each
 * day as the daily statement gives it, and the period's totals. Days without events are listed
 * too, so the series has no gaps.
 */
@QueryHandler(PeriodStatement)
export class PeriodStatementHandler implements IQueryHandler<PeriodStatement> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ partnerId, environment, from, to, progress }: PeriodStatement): Promise<WalletPeriodStatement> {
    const first = startOfDay(from);
    if (first === null) throw new ServiceError('validation_failed', 'from: a date as YYYY-MM-DD');
    const last = startOfDay(to);
    if (last === null) throw new ServiceError('validation_failed', 'to: a date as YYYY-MM-DD');
    if (last < first) throw new ServiceError('validation_failed', 'to: not before from');
    const { asOf, complete } = statementHorizon(last, this.clock.now(), 'to');
    const dayCount = (last - first) / DAY_MS + 1;
    if (dayCount > MAX_STATEMENT_DAYS)
      throw new ServiceError('validation_failed', `to: at most ${MAX_STATEMENT_DAYS} days from from`);
    const { partner, currency, days } = await walletStatementDays(
      { store: this.store, readModels: this.readModels },
      partnerId,
      environment,
      first,
      dayCount,
      progress,
    );

    const total = (pick: (day: StatementDay) => Money) =>
      days.reduce((sum, day) => sum.plus(pick(day)), Money.zero(currency));
    const count = (pick: (day: StatementDay) => number) => days.reduce((sum, day) => sum + pick(day), 0);
    return {
      partnerId,
      partnerName: partner.name,
      environment,
      currency,
      from,
      to,
      asOf,
      complete,
      opening: days[0].opening,
      debits: total((day) => day.debits),
      refunds: total((day) => day.refunds),
      credits: total((day) => day.credits),
      closing: days[days.length - 1].closing,
      counts: {
        debits: count((day) => day.counts.debits),
        refunds: count((day) => day.counts.refunds),
        credits: count((day) => day.counts.credits),
      },
      addsUp: days.every((day) => day.addsUp),
      days,
    };
  }
}
