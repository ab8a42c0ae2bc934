import fc from 'fast-check';
import { Money } from '../../../src/domain/money/money';
import { Actor } from '../../../src/domain/shared/actor';
import {
  TransactionCommand,
  TransactionState,
  transactionDecider,
} from '../../../src/domain/transaction/transaction.decider';
import { TransactionEvent, TransactionInitiated } from '../../../src/domain/transaction/transaction.events';
import { WalletCommand, WalletState, walletDecider } from '../../../src/domain/wallet/wallet.decider';
import { WalletEvent } from '../../../src/domain/wallet/wallet.events';

/** Fixed seed: a failure replays exactly; fast-check prints the shrunk command sequence. */
const RUNS = { seed: 18, numRuns: 400 };
const AT = '2026-01-01T00:00:00.000Z';
const TOPUP = { kind: 'topup' as const, operatorId: 101, phone: '+919876540001' };

/** Runs commands through a decider as the command handlers do: decide on the folded state, append what it accepts. */
function run<State, Command, Event>(
  decider: {
    initialState: State;
    decide(c: Command, s: State): { ok: true; events: Event[] } | { ok: false };
    evolve(s: State, e: Event): State;
  },
  commands: readonly Command[],
) {
  let state = decider.initialState;
  const log: Event[] = [];
  const states: State[] = [state];
  for (const command of commands) {
    const decision = decider.decide(command, state);
    if (!decision.ok) continue;
    for (const event of decision.events) {
      log.push(event);
      state = decider.evolve(state, event);
      states.push(state);
    }
  }
  return { state, log, states };
}

describe('the wallet, for any sequence of credits, debits and refunds', () => {
  const amount = fc.bigInt({ min: -5n, max: 200_000n }).map((minor) => Money.ofMinor(minor, 'INR'));
  const command: fc.Arbitrary<WalletCommand> = fc.oneof(
    fc.record({
      type: fc.constant('CreditWallet' as const),
      creditId: fc.uuid(),
      amount,
      kind: fc.constant('funding' as const),
      reference: fc.constant('ref'),
      at: fc.constant(AT),
    }),
    fc.record({
      type: fc.constant('DebitWallet' as const),
      orderId: fc.uuid(),
      amount,
      reference: fc.constant(null),
      idempotencyKey: fc.uuid(),
      product: fc.constant(TOPUP),
      at: fc.constant(AT),
    }),
    fc.record({
      type: fc.constant('RefundWallet' as const),
      orderId: fc.uuid(),
      amount,
      reason: fc.constant('upstream failure'),
      at: fc.constant(AT),
    }),
    // Another currency than the wallet's (set by its first event, the INR grant below) is always refused.
    fc.record({
      type: fc.constant('CreditWallet' as const),
      creditId: fc.uuid(),
      amount: amount.map((money) => Money.ofMinor(money.minor, 'SGD')),
      kind: fc.constant('funding' as const),
      reference: fc.constant('ref'),
      at: fc.constant(AT),
    }),
  );

  const grant: WalletCommand = {
    type: 'CreditWallet',
    creditId: 'grant',
    amount: Money.ofMinor(100_000n, 'INR'),
    kind: 'sandbox_grant',
    reference: 'grant',
    at: AT,
  };
  const grantThen = (maxLength: number) => fc.array(command, { maxLength }).map((rest) => [grant, ...rest]);

  it('never goes below zero; every event records the balance its fold reaches; the balance is credits and refunds less debits', () => {
    fc.assert(
      fc.property(grantThen(60), (commands) => {
        const { log, states } = run<WalletState, WalletCommand, WalletEvent>(walletDecider, commands);
        for (const state of states) expect(state.balanceMinor >= 0n).toBe(true);
        let expected = 0n;
        log.forEach((event, index) => {
          const moved = Money.parse(event.data.amount, event.data.currency);
          expect(moved?.isPositive()).toBe(true);
          expect(event.data.currency).toBe('INR');
          expected += event.type === 'WalletDebited' ? -(moved?.minor ?? 0n) : (moved?.minor ?? 0n);
          expect(Money.parse(event.data.balanceAfter, 'INR')?.minor).toBe(states[index + 1].balanceMinor);
        });
        expect(states[states.length - 1].balanceMinor).toBe(expected);
      }),
      RUNS,
    );
  });

  it('a debit is accepted exactly when the balance covers it', () => {
    fc.assert(
      fc.property(grantThen(30), fc.bigInt({ min: 1n, max: 300_000n }), (commands, minor) => {
        const { state } = run<WalletState, WalletCommand, WalletEvent>(walletDecider, commands);
        const decision = walletDecider.decide(
          {
            type: 'DebitWallet',
            orderId: 'o',
            amount: Money.ofMinor(minor, 'INR'),
            reference: null,
            idempotencyKey: 'k',
            product: TOPUP,
            at: AT,
          },
          state,
        );
        expect(decision.ok).toBe(minor <= state.balanceMinor);
        if (!decision.ok) expect(decision.error.code).toBe('insufficient_balance');
      }),
      RUNS,
    );
  });
});

describe('an order, for any sequence of provider answers, holds and resolutions in any order', () => {
  const OPERATOR: Actor = { type: 'operator', id: 'ops' };
  const order: TransactionInitiated['data'] = {
    orderId: 'ord_1',
    partnerId: 'ptr_1',
    environment: 'sandbox',
    amount: '100.00',
    currency: 'INR',
    reference: null,
    product: TOPUP,
    placedAt: AT,
  };
  const command: fc.Arbitrary<TransactionCommand> = fc.constantFrom<TransactionCommand>(
    { type: 'InitiateTransaction', order },
    { type: 'RecordSubmission', providerReference: 'p-1', at: AT },
    { type: 'SettleTransaction', operatorRef: 'op-1', at: AT },
    { type: 'SettleTransaction', operatorRef: 'op-2', at: AT },
    { type: 'FailTransaction', reason: 'declined', basis: 'provider_record', at: AT },
    { type: 'FailTransaction', reason: 'absent', basis: 'absence_confirmed', at: AT },
    { type: 'FailTransaction', reason: 'refused', basis: 'refused', at: AT },
    { type: 'FailTransaction', reason: 'float short', basis: 'not_sent', at: AT },
    { type: 'RecordAttemptInDoubt', reason: 'no answer', at: AT },
    { type: 'RecordAttemptNotSent', attempt: 2, reason: 'breaker open', at: AT },
    { type: 'RecordLookUp', result: 'nothing yet', at: AT },
    { type: 'HoldTransaction', reason: 'stuck', at: AT },
    { type: 'ResolveTransaction', outcome: 'success', reason: 'checked', operator: OPERATOR, at: AT },
    { type: 'ResolveTransaction', outcome: 'failed', reason: 'checked', operator: OPERATOR, at: AT },
  );
  const sequence = fc
    .array(command, { maxLength: 40 })
    .map((commands): TransactionCommand[] => [{ type: 'InitiateTransaction', order }, ...commands]);

  it('gets at most one outcome, never leaves SUCCESS or FAILED, and records at most one late answer of each kind', () => {
    fc.assert(
      fc.property(sequence, (commands) => {
        const { log, states } = run<TransactionState, TransactionCommand, TransactionEvent>(
          transactionDecider,
          commands,
        );
        const count = (type: TransactionEvent['type']) => log.filter((event) => event.type === type).length;
        expect(count('TransactionSettled') + count('TransactionFailed')).toBeLessThanOrEqual(1);
        expect(count('TransactionInitiated')).toBe(1);
        expect(count('ProviderAnsweredAfterHold')).toBeLessThanOrEqual(1);
        expect(count('ProviderAnsweredAfterOutcome')).toBeLessThanOrEqual(1);
        const finalAt = states.findIndex((state) => state.status === 'SUCCESS' || state.status === 'FAILED');
        if (finalAt >= 0) for (const later of states.slice(finalAt)) expect(later.status).toBe(states[finalAt].status);
      }),
      RUNS,
    );
  });

  it('an order the provider reported succeeded while it was held is never resolved as failed', () => {
    fc.assert(
      fc.property(sequence, (commands) => {
        const { log } = run<TransactionState, TransactionCommand, TransactionEvent>(transactionDecider, commands);
        const lateSuccess = log.findIndex(
          (event) => event.type === 'ProviderAnsweredAfterHold' && event.data.outcome === 'succeeded',
        );
        if (lateSuccess >= 0)
          expect(log.slice(lateSuccess).some((event) => event.type === 'TransactionFailed')).toBe(false);
      }),
      RUNS,
    );
  });

  it('an answer after the outcome is recorded exactly when it contradicts it or follows an operator decision, and changes nothing else', () => {
    fc.assert(
      fc.property(
        sequence,
        fc.constantFrom<TransactionCommand>(
          { type: 'SettleTransaction', operatorRef: 'late', at: AT },
          { type: 'FailTransaction', reason: 'late', basis: 'provider_record', at: AT },
        ),
        (commands, answer) => {
          const { state } = run<TransactionState, TransactionCommand, TransactionEvent>(transactionDecider, commands);
          fc.pre(state.status === 'SUCCESS' || state.status === 'FAILED');
          const decision = transactionDecider.decide(answer, state);
          expect(decision.ok).toBe(true);
          if (!decision.ok) return;
          const contradicts = (answer.type === 'SettleTransaction') !== (state.status === 'SUCCESS');
          const expected =
            state.answerAfterOutcome === null && (contradicts || state.resolvedManually)
              ? ['ProviderAnsweredAfterOutcome']
              : [];
          expect(decision.events.map((event) => event.type)).toEqual(expected);
          const after = decision.events.reduce(transactionDecider.evolve, state);
          expect(after.status).toBe(state.status);
        },
      ),
      RUNS,
    );
  });

  it('once an attempt may have reached the provider, no refusal or pre-check of a later attempt fails the order: only the provider’s record of it, its confirmed absence or an operator does', () => {
    fc.assert(
      fc.property(sequence, (commands) => {
        const { log, states } = run<TransactionState, TransactionCommand, TransactionEvent>(
          transactionDecider,
          commands,
        );
        // states[i + 1] is the state after log[i]; a failure is judged on the state before it.
        log.forEach((event, index) => {
          if (event.type !== 'TransactionFailed' || !states[index].providerMayHaveIt) return;
          expect(
            event.data.resolvedBy !== null ||
              event.data.basis === 'provider_record' ||
              event.data.basis === 'absence_confirmed',
          ).toBe(true);
        });
      }),
      RUNS,
    );
  });

  it('an order in doubt, whatever later attempts and pre-checks say, is never failed by them: it stays open or is held', () => {
    const later = fc.constantFrom<TransactionCommand>(
      { type: 'FailTransaction', reason: 'PHONE_RECENTLY_RECHARGED', basis: 'refused', at: AT },
      { type: 'FailTransaction', reason: 'INSUFFICIENT_BALANCE', basis: 'refused', at: AT },
      { type: 'FailTransaction', reason: 'the float cannot cover it', basis: 'not_sent', at: AT },
      { type: 'RecordAttemptInDoubt', reason: 'no answer again', at: AT },
      { type: 'RecordAttemptNotSent', attempt: 3, reason: 'rate limited', at: AT },
      { type: 'RecordLookUp', result: 'nothing yet', at: AT },
      { type: 'RecordSubmission', providerReference: null, at: AT },
      { type: 'HoldTransaction', reason: 'stuck', at: AT },
    );
    const doubt = fc.constantFrom<TransactionCommand>(
      { type: 'RecordAttemptInDoubt', reason: 'no answer within 20000 ms', at: AT },
      { type: 'RecordSubmission', providerReference: 'p-1', at: AT },
    );
    fc.assert(
      fc.property(doubt, fc.array(later, { maxLength: 30 }), (first, rest) => {
        const { log, state } = run<TransactionState, TransactionCommand, TransactionEvent>(transactionDecider, [
          { type: 'InitiateTransaction', order },
          first,
          ...rest,
        ]);
        expect(log.some((event) => event.type === 'TransactionFailed')).toBe(false);
        expect(['INITIATED', 'PENDING', 'DISPUTED']).toContain(state.status);
      }),
      RUNS,
    );
  });
});
