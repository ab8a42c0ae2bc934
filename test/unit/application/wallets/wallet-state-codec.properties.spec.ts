import fc from 'fast-check';
import { decodeWalletState, encodeWalletState } from '../../../../src/application/wallets/wallet-state-codec';
import { Money } from '../../../../src/domain/money/money';
import { fold } from '../../../../src/domain/shared/decider';
import { WalletCommand, WalletState, walletDecider } from '../../../../src/domain/wallet/wallet.decider';
import { WalletEvent } from '../../../../src/domain/wallet/wallet.events';

/** Fixed seed: a failure replays exactly; fast-check prints the shrunk command sequence. */
const RUNS = { seed: 31, numRuns: 300 };
const START = Date.parse('2026-01-01T00:00:00.000Z');
const TOPUP = { kind: 'topup' as const, operatorId: 101, phone: '+919876540001' };
const KEYS = ['key_a', 'key_b'];

type Step =
  | { kind: 'credit'; minor: bigint }
  | { kind: 'debit'; minor: bigint; key: number | null }
  | { kind: 'refund'; of: number };

/** Commands as the service sends them: in time order, refunds of earlier debits (or of unknown orders), caps on some keys. */
function commandsOf(steps: readonly Step[], gapsMs: readonly number[]): WalletCommand[] {
  const orders: { orderId: string; minor: bigint }[] = [];
  return steps.map((step, index): WalletCommand => {
    const at = new Date(START + gapsMs.slice(0, index + 1).reduce((sum, gap) => sum + gap, 0)).toISOString();
    if (step.kind === 'credit') {
      const amount = Money.ofMinor(step.minor, 'INR');
      return { type: 'CreditWallet', creditId: `crd_${index}`, amount, kind: 'funding', reference: 'ref', at };
    }
    if (step.kind === 'debit') {
      const orderId = `ord_${index}`;
      orders.push({ orderId, minor: step.minor });
      const keyCaps =
        step.key === null
          ? null
          : { keyId: KEYS[step.key], perOrderMax: null, dailyMax: Money.ofMinor(600_000n, 'INR') };
      const amount = Money.ofMinor(step.minor, 'INR');
      return {
        type: 'DebitWallet',
        orderId,
        amount,
        reference: null,
        idempotencyKey: `key-${index}`,
        product: TOPUP,
        keyCaps,
        at,
      };
    }
    const order = orders.length ? orders[step.of % orders.length] : { orderId: 'ord_unknown', minor: 100n };
    const amount = Money.ofMinor(order.minor, 'INR');
    return { type: 'RefundWallet', orderId: order.orderId, amount, reason: 'upstream failure', at };
  });
}

function logOf(commands: readonly WalletCommand[]): WalletEvent[] {
  let state = walletDecider.initialState;
  const log: WalletEvent[] = [];
  for (const command of commands) {
    const decision = walletDecider.decide(command, state);
    if (!decision.ok) continue;
    for (const event of decision.events) {
      log.push(event);
      state = walletDecider.evolve(state, event);
    }
  }
  return log;
}

/** What a snapshot keeps: the state as written to the table's JSON and read back. */
const throughSnapshot = (state: WalletState): WalletState | null =>
  decodeWalletState(JSON.parse(JSON.stringify(encodeWalletState(state))));

describe('a wallet restored from a snapshot and folded forward', () => {
  const minor = fc.bigInt({ min: 1n, max: 400_000n });
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant('credit' as const), minor }),
    fc.record({ kind: fc.constant('debit' as const), minor, key: fc.option(fc.integer({ min: 0, max: 1 })) }),
    fc.record({ kind: fc.constant('refund' as const), of: fc.nat() }),
  );
  // Up to 30 hours between commands, so restricted keys' spends fall out of their 24-hour window.
  const history = fc
    .array(step, { minLength: 1, maxLength: 50 })
    .chain((steps) =>
      fc.tuple(
        fc.constant(steps),
        fc.array(fc.integer({ min: 0, max: 30 * 3600_000 }), { minLength: steps.length, maxLength: steps.length }),
      ),
    );
  const grant: Step = { kind: 'credit', minor: 1_000_000n };

  it('equals the wallet folded from its first event, whatever event the snapshot was taken at', () => {
    fc.assert(
      fc.property(history, ([steps, gaps]) => {
        const log = logOf(commandsOf([grant, ...steps], [0, ...gaps]));
        const whole = fold(walletDecider, log);
        for (let taken = 0; taken < log.length; taken += 1) {
          const restored = throughSnapshot(fold(walletDecider, log.slice(0, taken + 1)));
          expect(restored).not.toBeNull();
          if (!restored) return;
          expect(log.slice(taken + 1).reduce(walletDecider.evolve, restored)).toEqual(whole);
        }
      }),
      RUNS,
    );
  });

  it('keeps amounts as integers in decimal text, beyond what a double holds exactly', () => {
    const state: WalletState = {
      currency: 'SGD',
      balanceMinor: 123_456_789_012_345_678n,
      keySpends: [
        { keyId: 'key_a', orderId: 'ord_1', minor: 9_007_199_254_740_993n, placedAt: '2026-01-01T00:00:00.000Z' },
      ],
    };
    expect(encodeWalletState(state)).toEqual({
      currency: 'SGD',
      balanceMinor: '123456789012345678',
      keySpends: [
        { keyId: 'key_a', orderId: 'ord_1', minor: '9007199254740993', placedAt: '2026-01-01T00:00:00.000Z' },
      ],
    });
    expect(throughSnapshot(state)).toEqual(state);
  });
});

describe('a snapshot state that was not written by this code', () => {
  const good = { currency: 'INR', balanceMinor: '100000', keySpends: [] };
  const spend = { keyId: 'key_a', orderId: 'ord_1', minor: '500', placedAt: '2026-01-01T00:00:00.000Z' };

  it.each([
    ['nothing', null],
    ['an array', [good]],
    ['a balance as a JSON number', { ...good, balanceMinor: 100000 }],
    ['a balance with a fraction', { ...good, balanceMinor: '1000.00' }],
    ['a balance in exponent form', { ...good, balanceMinor: '1e5' }],
    ['an unknown currency', { ...good, currency: 'USD' }],
    ['no currency', { ...good, currency: null }],
    ['a missing field', { currency: 'INR', balanceMinor: '100000' }],
    ['an extra field', { ...good, pending: [] }],
    ['key spends that are not a list', { ...good, keySpends: {} }],
    ['a key spend as a JSON number', { ...good, keySpends: [{ ...spend, minor: 500 }] }],
    ['a key spend without a time', { ...good, keySpends: [{ ...spend, placedAt: 'yesterday' }] }],
    ['a key spend with an extra field', { ...good, keySpends: [{ ...spend, refunded: false }] }],
  ])('is refused: %s', (_case, json) => {
    expect(decodeWalletState(json)).toBeNull();
  });

  it('is read when it is exactly what this code writes', () => {
    expect(decodeWalletState({ ...good, keySpends: [spend] })).toEqual({
      currency: 'INR',
      balanceMinor: 100_000n,
      keySpends: [{ keyId: 'key_a', orderId: 'ord_1', minor: 500n, placedAt: '2026-01-01T00:00:00.000Z' }],
    });
  });
});
