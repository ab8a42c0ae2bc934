import { paymentOf, topupOf } from '../../../../../src/infrastructure/providers/reloadly/reloadly-records';
import {
  paymentMismatch,
  topupMismatch,
} from '../../../../../src/infrastructure/providers/reloadly/reloadly-success-check';

/**
 * A Reloadly success checked against its order (docs/decisions/0120-reloadly-absence-after-the-horizon.md): topups of
 * 199.00 INR and payments of 850.50 INR, both sent as local amounts.
 */
describe('a Reloadly success checked against its order', () => {
  const order = { orderId: 'ord_1', amount: '199.00', currency: 'INR' as const };
  const bill = { orderId: 'ord_2', amount: '850.50', currency: 'INR' as const };
  /** A SUCCESSFUL topup as Reloadly's answers give it (amounts as JSON numbers), with the order's values. */
  const topup = (fields: Record<string, unknown> = {}) =>
    topupOf({
      transactionId: 4602843,
      status: 'SUCCESSFUL',
      customIdentifier: 'ord_1',
      requestedAmount: 2.39,
      requestedAmountCurrencyCode: 'USD',
      deliveredAmount: 199,
      deliveredAmountCurrencyCode: 'INR',
      transactionDate: '2026-03-02 05:00:00',
      ...fields,
    })!;
  /** A payment as GET /transactions/{id} gives it. */
  const payment = (fields: Record<string, unknown> = {}) =>
    paymentOf({
      code: 'PAYMENT_PROCESSED_SUCCESSFULLY',
      message: 'The payment was processed successfully',
      transaction: {
        id: 13,
        status: 'SUCCESSFUL',
        referenceId: 'ord_2',
        amount: 850.5,
        amountCurrencyCode: 'INR',
        deliveryAmount: 850.5,
        deliveryAmountCurrencyCode: 'INR',
        fee: 0.25,
        feeCurrencyCode: 'USD',
        submittedAt: '2026-03-02 05:00:00',
        ...fields,
      },
    })!;

  describe('topups (useLocalAmount: no FX on the local amount)', () => {
    it('matches when it delivered the order’s amount in the order’s currency, whatever the account-currency requestedAmount says', () => {
      expect(topupMismatch(order, topup())).toBeNull();
      expect(topupMismatch(order, topup({ requestedAmount: 7.5 }))).toBeNull();
      expect(topupMismatch(order, topup({ deliveredAmount: 199.0 }))).toBeNull();
    });

    it('compares requestedAmount only when it is in the order’s currency, and then exactly', () => {
      expect(topupMismatch(order, topup({ requestedAmount: 199, requestedAmountCurrencyCode: 'INR' }))).toBeNull();
      expect(topupMismatch(order, topup({ requestedAmount: 198.99, requestedAmountCurrencyCode: 'INR' }))).toBe(
        "it was requested for 198.99 INR, not the order's 199.00 INR",
      );
    });

    it('takes more delivered than ordered (an operator’s bonus) as the order', () => {
      expect(topupMismatch(order, topup({ deliveredAmount: 219 }))).toBeNull();
    });

    it('is a mismatch when less was delivered, in another currency, or without saying what', () => {
      expect(topupMismatch(order, topup({ deliveredAmount: 179.1 }))).toBe(
        "it delivered 179.1 INR, less than the order's 199.00 INR",
      );
      expect(topupMismatch(order, topup({ deliveredAmount: 2.39, deliveredAmountCurrencyCode: 'USD' }))).toBe(
        'it delivered 2.39 USD, not an amount in INR',
      );
      expect(topupMismatch(order, topup({ deliveredAmount: null }))).toBe('it does not say what was delivered');
      expect(topupMismatch(order, topup({ deliveredAmountCurrencyCode: undefined }))).toBe(
        'it does not say what was delivered',
      );
    });

    it('is a mismatch when it carries another customIdentifier, or none', () => {
      expect(topupMismatch(order, topup({ customIdentifier: 'ord_other' }))).toBe(
        'it carries the customIdentifier ord_other, not ord_1',
      );
      expect(topupMismatch(order, topup({ customIdentifier: null }))).toBe(
        'it carries the customIdentifier (none), not ord_1',
      );
    });

    it('compares decimals exactly, never as floats', () => {
      const tiny = { ...order, amount: '0.30' };
      expect(topupMismatch(tiny, topup({ customIdentifier: 'ord_1', deliveredAmount: 0.1 + 0.2 }))).toBeNull();
      expect(topupMismatch(tiny, topup({ deliveredAmount: 0.29999999 }))).toBe(
        "it delivered 0.29999999 INR, less than the order's 0.30 INR",
      );
    });
  });

  describe('utility payments (useLocalAmount: the biller’s currency)', () => {
    it('matches when it paid exactly the order’s amount in its currency, and delivered no less', () => {
      expect(paymentMismatch(bill, payment())).toBeNull();
      expect(paymentMismatch(bill, payment({ deliveryAmount: null, deliveryAmountCurrencyCode: null }))).toBeNull();
    });

    it('is a mismatch when it paid another amount or in another currency', () => {
      expect(paymentMismatch(bill, payment({ amount: 765.45 }))).toBe("it paid 765.45 INR, not the order's 850.50 INR");
      expect(paymentMismatch(bill, payment({ amount: 900 }))).toBe("it paid 900 INR, not the order's 850.50 INR");
      expect(paymentMismatch(bill, payment({ amount: 10.22, amountCurrencyCode: 'USD' }))).toBe(
        "it paid 10.22 USD, not the order's 850.50 INR",
      );
      expect(paymentMismatch(bill, payment({ amountCurrencyCode: null }))).toBe(
        "it paid 850.5 (no currency), not the order's 850.50 INR",
      );
    });

    it('is a mismatch when it delivered less, or elsewhere, than it paid', () => {
      expect(paymentMismatch(bill, payment({ deliveryAmount: 800 }))).toBe(
        "it delivered 800 INR, less than the order's 850.50 INR",
      );
      expect(paymentMismatch(bill, payment({ deliveryAmountCurrencyCode: 'USD' }))).toBe(
        'it delivered 850.5 USD, not an amount in INR',
      );
    });

    it('is a mismatch when it carries another referenceId, or states no amount at all', () => {
      expect(paymentMismatch(bill, payment({ referenceId: 'ord_other' }))).toBe(
        'it carries the referenceId ord_other, not ord_2',
      );
      expect(paymentMismatch(bill, payment({ amount: null, deliveryAmount: null }))).toBe(
        'it does not say what amount was paid',
      );
    });
  });
});
