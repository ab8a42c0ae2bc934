import { Currency } from '../../../../src/domain/money/currency';
import { Money } from '../../../../src/domain/money/money';
import { fold } from '../../../../src/domain/shared/decider';
import { OrderProduct } from '../../../../src/domain/wallet/order-product';
import { WalletCommand, walletBalance, walletDecider } from '../../../../src/domain/wallet/wallet.decider';
import {
  WalletCredited,
  WalletDebited,
  WalletEvent,
  WalletRefunded,
} from '../../../../src/domain/wallet/wallet.events';
import { spec } from '../../../support/decider-spec';

const AT = '2025-01-15T10:00:00.000Z';
const PRODUCT: OrderProduct = { kind: 'topup', operatorId: 101, phone: '+919876540001' };

const money = (text: string, currency: Currency = 'INR'): Money => {
  const amount = Money.parse(text, currency);
  if (!amount) throw new Error(`bad test amount ${text}`);
  return amount;
};

// Commands
const credit = (amount: string, currency: Currency = 'INR'): WalletCommand => ({
  type: 'CreditWallet',
  creditId: 'crd_1',
  amount: money(amount, currency),
  kind: 'funding',
  reference: 'bank transfer 42',
  at: AT,
});
const debit = (orderId: string, amount: string, currency: Currency = 'INR'): WalletCommand => ({
  type: 'DebitWallet',
  orderId,
  amount: money(amount, currency),
  reference: 'partner-ref',
  idempotencyKey: `idem-${orderId}`,
  product: PRODUCT,
  at: AT,
});
const refund = (orderId: string, amount: string, currency: Currency = 'INR'): WalletCommand => ({
  type: 'RefundWallet',
  orderId,
  amount: money(amount, currency),
  reason: 'upstream failure',
  at: AT,
});

// Events
const credited = (amount: string, balanceAfter: string, currency: Currency = 'INR'): WalletCredited => ({
  type: 'WalletCredited',
  data: {
    creditId: 'crd_1',
    amount,
    currency,
    balanceAfter,
    kind: 'funding',
    reference: 'bank transfer 42',
    creditedAt: AT,
  },
});
const debited = (orderId: string, amount: string, balanceAfter: string, currency: Currency = 'INR'): WalletDebited => ({
  type: 'WalletDebited',
  data: {
    orderId,
    amount,
    currency,
    balanceAfter,
    reference: 'partner-ref',
    idempotencyKey: `idem-${orderId}`,
    product: PRODUCT,
    placedAt: AT,
  },
});
const refunded = (orderId: string, amount: string, balanceAfter: string): WalletRefunded => ({
  type: 'WalletRefunded',
  data: { orderId, amount, currency: 'INR', balanceAfter, reason: 'upstream failure', refundedAt: AT },
});

const wallet = spec(walletDecider);

describe('a partner wallet', () => {
  describe('funding', () => {
    it('credits an empty wallet and records the balance after the credit', () => {
      wallet.given().when(credit('1000.00')).then(credited('1000.00', '1000.00'));
    });

    it('adds a credit to what is already there', () => {
      wallet.given(credited('1000.00', '1000.00')).when(credit('250.50')).then(credited('250.50', '1250.50'));
    });

    it('records the sandbox starting credit as such', () => {
      const [event] = wallet
        .given()
        .when({ ...credit('1000'), kind: 'sandbox_grant' } as WalletCommand)
        .events();
      expect(event).toMatchObject({
        type: 'WalletCredited',
        data: { kind: 'sandbox_grant', amount: '1000.00', balanceAfter: '1000.00' },
      });
    });
  });

  describe('debiting an order', () => {
    it('debits the order amount and tells the balance after the debit', () => {
      wallet
        .given(credited('1000.00', '1000.00'))
        .when(debit('ord_1', '100.00'))
        .then(debited('ord_1', '100.00', '900.00'));
    });

    it('may spend the wallet down to exactly zero', () => {
      wallet
        .given(credited('100.00', '100.00'))
        .when(debit('ord_1', '100.00'))
        .then(debited('ord_1', '100.00', '0.00'));
    });

    it('refuses a debit one paisa above the balance with insufficient_balance, saying what is available', () => {
      wallet
        .given(credited('100.00', '100.00'))
        .when(debit('ord_1', '100.01'))
        .thenRefused('insufficient_balance', 'available 100.00 INR');
    });

    it('refuses any debit from a wallet that has never been funded', () => {
      wallet.given().when(debit('ord_1', '0.01')).thenRefused('insufficient_balance');
    });

    it('refuses a debit once earlier orders have used up the balance', () => {
      wallet
        .given(credited('1000.00', '1000.00'), debited('ord_1', '600.00', '400.00'), debited('ord_2', '400.00', '0.00'))
        .when(debit('ord_3', '0.01'))
        .thenRefused('insufficient_balance', 'available 0.00 INR');
    });

    it('refuses a zero amount', () => {
      wallet.given(credited('1000.00', '1000.00')).when(debit('ord_1', '0')).thenRefused('validation_failed');
    });

    it('refuses a negative amount rather than turning it into a credit', () => {
      const command: WalletCommand = { ...debit('ord_1', '1'), amount: Money.ofMinor(-10000n, 'INR') };
      wallet.given(credited('1000.00', '1000.00')).when(command).thenRefused('validation_failed');
    });
  });

  describe('refunding a failed order', () => {
    it('gives the order amount back and records the balance after the refund', () => {
      wallet
        .given(credited('1000.00', '1000.00'), debited('ord_1', '100.00', '900.00'))
        .when(refund('ord_1', '100.00'))
        .then(refunded('ord_1', '100.00', '1000.00'));
    });
  });

  describe('one currency per wallet', () => {
    it('refuses to credit a rupee wallet in Singapore dollars', () => {
      wallet
        .given(credited('1000.00', '1000.00'))
        .when(credit('10.00', 'SGD'))
        .thenRefused('currency_mismatch', 'wallet holds INR, not SGD');
    });

    it('refuses to debit a rupee wallet in taka', () => {
      wallet
        .given(credited('1000.00', '1000.00'))
        .when(debit('ord_1', '10.00', 'BDT'))
        .thenRefused('currency_mismatch');
    });

    it('refuses to refund a rupee wallet in Singapore dollars', () => {
      wallet
        .given(credited('1000.00', '1000.00'), debited('ord_1', '100.00', '900.00'))
        .when(refund('ord_1', '100.00', 'SGD'))
        .thenRefused('currency_mismatch');
    });

    it('takes its currency from its first event', () => {
      expect(wallet.given(credited('5.00', '5.00', 'BDT')).state()).toEqual({
        currency: 'BDT',
        balanceMinor: 500n,
        keySpends: [],
      });
    });
  });

  describe('the balance is the fold of the wallet’s events', () => {
    it('never goes below zero, and every recorded balance after equals the folded balance', () => {
      const commands: WalletCommand[] = [
        credit('1000.00'),
        debit('ord_1', '300.00'),
        debit('ord_2', '700.00'),
        debit('ord_3', '0.01'), // refused: empty
        refund('ord_2', '700.00'),
        debit('ord_4', '699.99'),
        debit('ord_5', '0.02'), // refused: 0.01 left
        debit('ord_6', '0.01'),
        credit('50.00'),
        refund('ord_1', '300.00'),
        debit('ord_7', '349.00'),
        debit('ord_8', '1.01'), // refused: 1.00 left
      ];
      const history: WalletEvent[] = [];
      const refusals: string[] = [];
      for (const command of commands) {
        const decision = walletDecider.decide(command, fold(walletDecider, history));
        if (!decision.ok) {
          refusals.push(decision.error.code);
          continue;
        }
        for (const event of decision.events) {
          history.push(event);
          const state = fold(walletDecider, history);
          expect(state.balanceMinor).toBeGreaterThanOrEqual(0n);
          expect(event.data.balanceAfter).toBe(walletBalance(state, 'INR').toDecimal());
        }
      }
      expect(refusals).toEqual(['insufficient_balance', 'insufficient_balance', 'insufficient_balance']);
      expect(walletBalance(fold(walletDecider, history), 'INR').toDecimal()).toBe('1.00');
    });
  });

  describe('restricted keys and their caps', () => {
    const HOUR = 60 * 60 * 1000;
    const later = (ms: number): string => new Date(new Date(AT).getTime() + ms).toISOString();
    const caps = (perOrderMax: string | null, dailyMax: string | null) => ({
      keyId: 'key_agent',
      perOrderMax: perOrderMax === null ? null : money(perOrderMax),
      dailyMax: dailyMax === null ? null : money(dailyMax),
    });
    const keyDebit = (orderId: string, amount: string, at = AT, keyCaps = caps('300.00', '500.00')): WalletCommand => ({
      ...(debit(orderId, amount) as Extract<WalletCommand, { type: 'DebitWallet' }>),
      keyCaps,
      at,
    });
    const keyDebited = (orderId: string, amount: string, balanceAfter: string, at = AT): WalletDebited => {
      const event = debited(orderId, amount, balanceAfter);
      return { ...event, data: { ...event.data, placedAt: at, scopedKeyId: 'key_agent' } };
    };
    const funded = credited('1000.00', '1000.00');

    it('records the key on a debit it placed', () => {
      wallet
        .given(funded)
        .when(keyDebit('ord_1', '300.00'))
        .then(keyDebited('ord_1', '300.00', '700.00'));
    });

    it('refuses an order above the per-order maximum, whatever the balance', () => {
      wallet
        .given(funded)
        .when(keyDebit('ord_1', '300.01'))
        .thenRefused('key_cap_exceeded', /per-order maximum of 300.00/);
    });

    it('refuses an order that would take the last 24 hours of the key above its daily maximum', () => {
      wallet
        .given(funded, keyDebited('ord_1', '300.00', '700.00'), keyDebited('ord_2', '150.00', '550.00'))
        .when(keyDebit('ord_3', '50.01'))
        .thenRefused('key_cap_exceeded', /spent 450.00 INR/);
      wallet
        .given(funded, keyDebited('ord_1', '300.00', '700.00'), keyDebited('ord_2', '150.00', '550.00'))
        .when(keyDebit('ord_3', '50.00'))
        .then(keyDebited('ord_3', '50.00', '500.00'));
    });

    it('checks the caps before the balance', () => {
      wallet.given(credited('10.00', '10.00')).when(keyDebit('ord_1', '300.01')).thenRefused('key_cap_exceeded');
    });

    it('counts only the last 24 hours: older spend falls out of the window', () => {
      const history = [
        funded,
        keyDebited('ord_1', '300.00', '700.00'),
        keyDebited('ord_2', '200.00', '500.00', later(HOUR)),
      ];
      wallet
        .given(...history)
        .when(keyDebit('ord_3', '100.00', later(24 * HOUR - 1)))
        .thenRefused('key_cap_exceeded');
      wallet
        .given(...history)
        .when(keyDebit('ord_3', '300.00', later(24 * HOUR)))
        .then(keyDebited('ord_3', '300.00', '200.00', later(24 * HOUR)));
    });

    it('a refund gives the order back to the daily maximum', () => {
      const history = [
        funded,
        keyDebited('ord_1', '300.00', '700.00'),
        keyDebited('ord_2', '200.00', '500.00'),
        refunded('ord_1', '300.00', '800.00'),
      ];
      wallet
        .given(...history)
        .when(keyDebit('ord_3', '300.00'))
        .then(keyDebited('ord_3', '300.00', '500.00'));
    });

    it("does not count another key's or the main key's orders", () => {
      wallet
        .given(funded, debited('ord_1', '500.00', '500.00'))
        .when(keyDebit('ord_2', '300.00'))
        .then(keyDebited('ord_2', '300.00', '200.00'));
    });

    it('a key without caps is held to none', () => {
      wallet
        .given(funded)
        .when(keyDebit('ord_1', '900.00', AT, caps(null, null)))
        .then(keyDebited('ord_1', '900.00', '100.00'));
    });
  });
});
