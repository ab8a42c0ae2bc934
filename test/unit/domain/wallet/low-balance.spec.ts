import { debitCrossesBelow } from '../../../../src/domain/wallet/low-balance';

const debit = (amount: string, balanceAfter: string) => ({ amount, balanceAfter, currency: 'INR' as const });

describe('a debit crosses the low-balance threshold', () => {
  it('when the balance was at or above it before and is below it after', () => {
    expect(debitCrossesBelow(debit('100.00', '499.99'), '500.00')).toBe(true);
    expect(debitCrossesBelow(debit('100.00', '400.00'), '500.00')).toBe(true); // from exactly 500.00
  });

  it('not when it stays above, lands exactly on it, or was below already', () => {
    expect(debitCrossesBelow(debit('100.00', '500.01'), '500.00')).toBe(false);
    expect(debitCrossesBelow(debit('100.00', '500.00'), '500.00')).toBe(false);
    expect(debitCrossesBelow(debit('100.00', '300.00'), '500.00')).toBe(false);
  });

  it('each of a run of debits crosses at most once between two returns above it', () => {
    let balance = 100_000n; // 1000.00 in paise
    const crossings: number[] = [];
    for (let i = 0; i < 10; i++) {
      balance -= 10_000n;
      const after = (Number(balance) / 100).toFixed(2);
      if (debitCrossesBelow(debit('100.00', after), '550')) crossings.push(i);
    }
    expect(crossings).toEqual([4]);
  });
});
