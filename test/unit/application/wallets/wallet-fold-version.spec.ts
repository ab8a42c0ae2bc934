import { encodeWalletState } from '../../../../src/application/wallets/wallet-state-codec';
import { fold } from '../../../../src/domain/shared/decider';
import { WALLET_FOLD_VERSION, walletDecider } from '../../../../src/domain/wallet/wallet.decider';
import { WalletEvent } from '../../../../src/domain/wallet/wallet.events';

const TOPUP = { kind: 'topup' as const, operatorId: 101, phone: '+919876540001' };

const credited = (amount: string, balanceAfter: string, at: string): WalletEvent => ({
  type: 'WalletCredited',
  data: {
    creditId: `crd_${at}`,
    amount,
    currency: 'INR',
    balanceAfter,
    kind: 'funding',
    reference: 'r',
    creditedAt: at,
  },
});
const debited = (
  orderId: string,
  amount: string,
  balanceAfter: string,
  at: string,
  scopedKeyId?: string,
): WalletEvent => ({
  type: 'WalletDebited',
  data: {
    orderId,
    amount,
    currency: 'INR',
    balanceAfter,
    reference: null,
    idempotencyKey: `idem-${orderId}`,
    product: TOPUP,
    placedAt: at,
    ...(scopedKeyId ? { scopedKeyId } : {}),
  },
});
const refunded = (orderId: string, amount: string, balanceAfter: string, at: string): WalletEvent => ({
  type: 'WalletRefunded',
  data: { orderId, amount, currency: 'INR', balanceAfter, reason: 'upstream failure', refundedAt: at },
});

/**
 * Wallet snapshots store the folded state under WALLET_FOLD_VERSION. If this fold changes, the meaning of
 * a stored snapshot changed: raise WALLET_FOLD_VERSION (snapshots of the old version are then ignored and
 * taken again) and pin the new version and fold here.
 */
describe('the wallet fold that snapshots store', () => {
  it('is the one of WALLET_FOLD_VERSION 1', () => {
    const history = [
      credited('1000.00', '1000.00', '2026-01-01T00:00:00.000Z'),
      debited('ord_1', '100.00', '900.00', '2026-01-01T01:00:00.000Z', 'key_a'),
      debited('ord_2', '50.50', '849.50', '2026-01-01T02:00:00.000Z', 'key_b'),
      debited('ord_3', '10.00', '839.50', '2026-01-01T03:00:00.000Z'),
      refunded('ord_2', '50.50', '890.00', '2026-01-01T04:00:00.000Z'),
      debited('ord_4', '0.25', '889.75', '2026-01-02T01:30:00.000Z', 'key_a'),
    ];
    expect(WALLET_FOLD_VERSION).toBe(1);
    expect(encodeWalletState(fold(walletDecider, history))).toEqual({
      currency: 'INR',
      balanceMinor: '88975',
      keySpends: [{ keyId: 'key_a', orderId: 'ord_4', minor: '25', placedAt: '2026-01-02T01:30:00.000Z' }],
    });
  });
});
