import { statementDays } from '../../../../src/application/audit/statement-days';
import { WalletLedgerEntry } from '../../../../src/application/audit/wallet-ledger';
import { Money } from '../../../../src/domain/money/money';
import { systemActor } from '../../../../src/domain/shared/actor';

type Move = [
  type: 'WalletCredited' | 'WalletDebited' | 'WalletRefunded',
  amount: string,
  occurredAt: string,
  recorded?: string,
];

const inr = (text: string): Money => Money.parse(text, 'INR')!;

/** A ledger in log order, folded as walletLedger folds it; `recorded` overrides the balance an event records. */
async function* ledger(moves: Move[]): AsyncGenerator<WalletLedgerEntry> {
  let running = Money.zero('INR');
  for (const [index, [type, amount, occurredAt, recorded]] of moves.entries()) {
    const signedAmount = type === 'WalletDebited' ? Money.zero('INR').minus(inr(amount)) : inr(amount);
    running = running.plus(signedAmount);
    yield {
      revision: index,
      position: `${index}/${index}`,
      recordedAt: occurredAt,
      occurredAt,
      eventType: type,
      eventId: `event-${index}`,
      orderId: null,
      kind: 'test',
      amount: inr(amount),
      signedAmount,
      runningBalance: running,
      balanceAfter: recorded ?? running.toDecimal(),
      actor: systemActor('test'),
      correlationId: `event-${index}`,
      reference: null,
      reason: null,
    };
  }
}

const MARCH_10 = Date.parse('2026-03-10T00:00:00.000Z');
const MARCH_11 = Date.parse('2026-03-11T00:00:00.000Z');

const figures = async (moves: Move[], firstDayStart: number, dayCount: number) =>
  (await statementDays(ledger(moves), 'INR', firstDayStart, dayCount)).map((day) => ({
    date: day.date,
    opening: day.opening.toDecimal(),
    debits: day.debits.toDecimal(),
    refunds: day.refunds.toDecimal(),
    credits: day.credits.toDecimal(),
    closing: day.closing.toDecimal(),
    counts: day.counts,
    checks: day.checks,
  }));

/** A credit the day before, debits at the very start and end of the 10th, a refund written after a later-dated debit, a debit at midnight of the 11th. */
const AROUND_MIDNIGHT: Move[] = [
  ['WalletCredited', '100.00', '2026-03-09T12:00:00.000Z'],
  ['WalletDebited', '30.00', '2026-03-10T00:00:00.000Z'],
  ['WalletDebited', '20.00', '2026-03-10T23:59:59.999Z'],
  // Written after the debit above but a moment earlier: the same day either way.
  ['WalletRefunded', '20.00', '2026-03-10T23:59:59.900Z'],
  ['WalletDebited', '10.00', '2026-03-11T00:00:00.000Z'],
];

const ALL_TRUE = {
  openingMatchesRecordedBalance: true,
  closingMatchesRecordedBalance: true,
  everyBalanceAfterMatchesTheFold: true,
};

describe('statement days: one fold of a wallet ledger into UTC days', () => {
  it('puts an event at exactly midnight in the day it opens, and leaves out what comes after the period', async () => {
    const moves: Move[] = [...AROUND_MIDNIGHT, ['WalletCredited', '1.00', '2026-03-12T00:00:00.000Z']];
    expect(await figures(moves, MARCH_10, 2)).toEqual([
      {
        date: '2026-03-10',
        opening: '100.00',
        debits: '50.00',
        refunds: '20.00',
        credits: '0.00',
        closing: '70.00',
        counts: { debits: 2, refunds: 1, credits: 0 },
        checks: ALL_TRUE,
      },
      {
        date: '2026-03-11',
        opening: '70.00',
        debits: '10.00',
        refunds: '0.00',
        credits: '0.00',
        closing: '60.00',
        counts: { debits: 1, refunds: 0, credits: 0 },
        checks: ALL_TRUE,
      },
    ]);
  });

  it('lists quiet days with the balance carried over, and days before the wallet existed at zero', async () => {
    const moves: Move[] = [['WalletCredited', '1000.00', '2026-03-11T08:00:00.000Z']];
    const days = await figures(moves, MARCH_10 - 86_400_000, 4);
    expect(days.map((day) => [day.date, day.opening, day.closing, day.checks])).toEqual([
      ['2026-03-09', '0.00', '0.00', ALL_TRUE],
      ['2026-03-10', '0.00', '0.00', ALL_TRUE],
      ['2026-03-11', '0.00', '1000.00', ALL_TRUE],
      ['2026-03-12', '1000.00', '1000.00', ALL_TRUE],
    ]);
  });

  it('gives each day of a period the figures of a statement of that day alone, also when events cross midnight out of order', async () => {
    const moves: Move[] = [
      ...AROUND_MIDNIGHT,
      // Written after the 11th's debit, dated on the 10th: it records 55.00, which includes that debit.
      ['WalletDebited', '5.00', '2026-03-10T23:59:59.950Z'],
    ];
    const period = await figures(moves, MARCH_10, 2);
    expect(period).toEqual([...(await figures(moves, MARCH_10, 1)), ...(await figures(moves, MARCH_11, 1))]);
    expect(period).toEqual([
      {
        date: '2026-03-10',
        opening: '100.00',
        debits: '55.00',
        refunds: '20.00',
        credits: '0.00',
        closing: '65.00',
        counts: { debits: 3, refunds: 1, credits: 0 },
        checks: {
          openingMatchesRecordedBalance: true,
          closingMatchesRecordedBalance: false,
          everyBalanceAfterMatchesTheFold: true,
        },
      },
      {
        date: '2026-03-11',
        opening: '65.00',
        debits: '10.00',
        refunds: '0.00',
        credits: '0.00',
        closing: '55.00',
        counts: { debits: 1, refunds: 0, credits: 0 },
        checks: {
          openingMatchesRecordedBalance: false,
          closingMatchesRecordedBalance: false,
          everyBalanceAfterMatchesTheFold: true,
        },
      },
    ]);
  });

  it("compares a day's opening with the latest event in the log dated before it, even when that event was written after the day before ended", async () => {
    const moves: Move[] = [
      ['WalletCredited', '100.00', '2026-03-09T12:00:00.000Z'],
      ['WalletDebited', '30.00', '2026-03-10T12:00:00.000Z'],
      ['WalletDebited', '10.00', '2026-03-11T12:00:00.000Z'],
      ['WalletRefunded', '10.00', '2026-03-11T13:00:00.000Z'],
      // Written last, dated on the 9th: it records 75.00, exactly the fold of everything dated before the 11th.
      ['WalletRefunded', '5.00', '2026-03-09T23:59:59.999Z'],
    ];
    const period = await figures(moves, MARCH_10, 2);
    expect(period).toEqual([...(await figures(moves, MARCH_10, 1)), ...(await figures(moves, MARCH_11, 1))]);
    expect(
      period.map((day) => [
        day.opening,
        day.closing,
        day.checks.openingMatchesRecordedBalance,
        day.checks.closingMatchesRecordedBalance,
      ]),
    ).toEqual([
      ['105.00', '75.00', false, false],
      ['75.00', '75.00', true, false],
    ]);
  });

  it('marks every day from the first event whose recorded balance is not the fold', async () => {
    const moves: Move[] = [
      ['WalletCredited', '100.00', '2026-03-09T12:00:00.000Z'],
      ['WalletCredited', '10.00', '2026-03-10T12:00:00.000Z', '999.00'],
      ['WalletDebited', '10.00', '2026-03-11T12:00:00.000Z', '989.00'],
    ];
    const days = await figures(moves, MARCH_10 - 86_400_000, 3);
    expect(days.map((day) => day.checks.everyBalanceAfterMatchesTheFold)).toEqual([true, false, false]);
    expect(days.map((day) => day.checks.closingMatchesRecordedBalance)).toEqual([true, false, false]);
    expect(days[2]).toMatchObject({ opening: '110.00', closing: '100.00' });
  });
});
