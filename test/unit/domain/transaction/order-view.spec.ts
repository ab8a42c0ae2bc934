import fc from 'fast-check';
import {
  OrderView,
  OrderViewEvent,
  evolveOrderView,
  foldOrderView,
} from '../../../../src/domain/transaction/order-view';
import {
  TransactionCommand,
  TransactionState,
  transactionDecider,
} from '../../../../src/domain/transaction/transaction.decider';
import { TransactionEvent, transactionStreamId } from '../../../../src/domain/transaction/transaction.events';
import { walletStreamId } from '../../../../src/domain/wallet/wallet.stream';

/**
 * The order view against the transaction decider, over histories the decider writes from random commands: the
 * status it folds is the decider's (the audit's outcome), and folding the history again onto its view changes
 * nothing (the read model's replays).
 */
const ORDER_ID = 'ord_view';
const WALLET = walletStreamId('ptr_view', 'live');
const at = (step: number) => new Date(Date.UTC(2026, 10, 28, 0, 0, step)).toISOString();
const OPERATOR = { type: 'operator', id: 'op_1' } as const;

const debit = (step: number): OrderViewEvent => ({
  type: 'WalletDebited',
  streamId: WALLET,
  metadata: { occurredAt: at(step) },
  data: {
    orderId: ORDER_ID,
    amount: '10.00',
    currency: 'INR',
    balanceAfter: '90.00',
    reference: null,
    idempotencyKey: 'key',
    product: { kind: 'topup', operatorId: 101, phone: '+919876540001' },
    placedAt: at(step),
    route: { provider: 'reloadly', upstreamId: '7' },
  },
});

const own = (event: TransactionEvent, step: number): OrderViewEvent => ({
  ...event,
  streamId: transactionStreamId(ORDER_ID),
  metadata: { occurredAt: at(step) },
});

const COMMANDS = (step: number): TransactionCommand[] => [
  { type: 'RecordSubmission', providerReference: 'p-1', at: at(step) },
  { type: 'SettleTransaction', operatorRef: `op-${step}`, at: at(step) },
  { type: 'FailTransaction', reason: 'declined', basis: 'provider_record', at: at(step) },
  { type: 'FailTransaction', reason: 'refused', basis: 'refused', at: at(step) },
  { type: 'RecordAttemptInDoubt', reason: 'timeout', at: at(step) },
  { type: 'HoldTransaction', reason: 'stuck', at: at(step) },
  {
    type: 'HoldOnMismatch',
    mismatch: { reason: 'amount', operatorRef: 'x', transactionId: 't', amount: '9.00', currency: 'INR', at: at(step) },
  },
  { type: 'ResolveTransaction', outcome: 'success', reason: 'checked', operator: OPERATOR, at: at(step) },
  { type: 'ResolveTransaction', outcome: 'failed', reason: 'checked', operator: OPERATOR, at: at(step) },
];

/** The order's log (its debit, its stream, its refund once failed) and its stream folded by the decider. */
function historyOf(choices: readonly number[]): { events: OrderViewEvent[]; state: TransactionState } {
  const events: OrderViewEvent[] = [debit(0)];
  let state = transactionDecider.initialState;
  const record = (command: TransactionCommand, step: number) => {
    const decision = transactionDecider.decide(command, state);
    if (!decision.ok) return;
    for (const event of decision.events) {
      state = transactionDecider.evolve(state, event);
      events.push(own(event, step));
    }
  };
  record({ type: 'InitiateTransaction', order: { ...ORDER, placedAt: at(0) } }, 0);
  choices.forEach((choice, index) => {
    const step = index + 1;
    const refunded = events.some((event) => event.type === 'WalletRefunded');
    if (choice === COMMANDS(step).length && state.status === 'FAILED' && !refunded) events.push(refund(step));
    else if (choice < COMMANDS(step).length) record(COMMANDS(step)[choice], step);
  });
  return { events, state };
}

const ORDER = {
  orderId: ORDER_ID,
  partnerId: 'ptr_view',
  environment: 'live',
  amount: '10.00',
  currency: 'INR',
  reference: null,
  product: { kind: 'topup', operatorId: 101, phone: '+919876540001' },
} as const;

const refund = (step: number): OrderViewEvent => ({
  type: 'WalletRefunded',
  streamId: WALLET,
  metadata: { occurredAt: at(step) },
  data: {
    orderId: ORDER_ID,
    amount: '10.00',
    currency: 'INR',
    balanceAfter: '100.00',
    reason: 'failed',
    refundedAt: at(step),
  },
});

const choices = fc.array(fc.integer({ min: 0, max: COMMANDS(0).length }), { maxLength: 12 });

describe('the order view', () => {
  it('folds the status the decider folds, holds only while held, and a refund only once refunded', () => {
    fc.assert(
      fc.property(choices, (picked) => {
        const { events, state } = historyOf(picked);
        const view = foldOrderView(ORDER_ID, events);
        expect(view?.status).toBe(state.status);
        expect(view?.heldAt !== null).toBe(state.status === 'DISPUTED');
        expect(view?.refundedAt !== null).toBe(events.some((event) => event.type === 'WalletRefunded'));
      }),
      { seed: 39, numRuns: 2000 },
    );
  });

  it('is left as it is when any suffix of its history is folded onto it again', () => {
    fc.assert(
      fc.property(choices, fc.nat(), (picked, cut) => {
        const { events } = historyOf(picked);
        const view = foldOrderView(ORDER_ID, events);
        const replayed = events.slice(cut % events.length).reduce<OrderView | null>(evolveOrderView, view);
        expect(replayed).toEqual(view);
      }),
      { seed: 39, numRuns: 2000 },
    );
  });

  it('starts from the debit: its wallet, amounts, route and placing time', () => {
    expect(foldOrderView(ORDER_ID, [debit(0)])).toMatchObject({
      partnerId: 'ptr_view',
      environment: 'live',
      status: 'INITIATED',
      amount: '10.00',
      balanceAfter: '90.00',
      provider: 'reloadly',
      createdAt: at(0),
      updatedAt: at(0),
    });
    expect(
      foldOrderView(ORDER_ID, [
        own(
          { type: 'TransactionSubmitted', data: { orderId: ORDER_ID, providerReference: null, submittedAt: at(1) } },
          1,
        ),
      ]),
    ).toBeNull();
  });
});
