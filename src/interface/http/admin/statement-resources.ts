import type { WalletDayStatement } from '../../../application/audit/daily-statement';
import type { WalletPeriodStatement } from '../../../application/audit/period-statement';
import { StatementDay, StatementFigures } from '../../../application/audit/statement-days';
import { Environment } from '../../../domain/shared/environment';

/** The figures as the statements print them: decimal strings, counts, and whether they add up. */
interface StatementFiguresFields {
  opening_balance: string;
  debits: string;
  refunds: string;
  credits: string;
  closing_balance: string;
  counts: StatementFigures['counts'];
  adds_up: boolean;
}

interface StatementChecksField {
  checks: {
    opening_matches_recorded_balance: boolean;
    closing_matches_recorded_balance: boolean;
    every_balance_after_matches_the_fold: boolean;
  };
}

export interface PeriodStatementResource extends StatementFiguresFields {
  partner_id: string;
  partner_name: string;
  environment: Environment;
  currency: string;
  from: string;
  to: string;
  as_of: string;
  complete: boolean;
  days: ({ date: string } & StatementFiguresFields & StatementChecksField)[];
}

const figuresFields = (figures: StatementFigures): StatementFiguresFields => ({
  opening_balance: figures.opening.toDecimal(),
  debits: figures.debits.toDecimal(),
  refunds: figures.refunds.toDecimal(),
  credits: figures.credits.toDecimal(),
  closing_balance: figures.closing.toDecimal(),
  counts: figures.counts,
  adds_up: figures.addsUp,
});

const checksField = ({ checks }: StatementDay): StatementChecksField => ({
  checks: {
    opening_matches_recorded_balance: checks.openingMatchesRecordedBalance,
    closing_matches_recorded_balance: checks.closingMatchesRecordedBalance,
    every_balance_after_matches_the_fold: checks.everyBalanceAfterMatchesTheFold,
  },
});

/** A wallet's day, and whether it adds up. */
export const dailyStatementResource = (statement: WalletDayStatement) => ({
  partner_id: statement.partnerId,
  environment: statement.environment,
  currency: statement.currency,
  date: statement.day.date,
  as_of: statement.asOf,
  complete: statement.complete,
  ...figuresFields(statement.day),
  ...checksField(statement.day),
});

export const periodStatementResource = (statement: WalletPeriodStatement): PeriodStatementResource => ({
  partner_id: statement.partnerId,
  partner_name: statement.partnerName,
  environment: statement.environment,
  currency: statement.currency,
  from: statement.from,
  to: statement.to,
  as_of: statement.asOf,
  complete: statement.complete,
  ...figuresFields(statement),
  days: statement.days.map((day) => ({ date: day.date, ...figuresFields(day), ...checksField(day) })),
});
