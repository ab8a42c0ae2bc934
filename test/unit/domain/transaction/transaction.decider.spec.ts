import { Actor } from '../../../../src/domain/shared/actor';
import {
  TransactionCommand,
  TransactionStatus,
  publicStatusOf,
  transactionDecider,
} from '../../../../src/domain/transaction/transaction.decider';
import {
  ProviderAnsweredAfterHold,
  ProviderAnsweredAfterOutcome,
  TransactionDisputed,
  TransactionFailed,
  TransactionInitiated,
  TransactionSettled,
  TransactionSubmitted,
} from '../../../../src/domain/transaction/transaction.events';
import { spec } from '../../../support/decider-spec';

const ORDER = 'ord_1';
const PLACED = '2025-01-15T10:00:00.000Z';
const LATER = '2025-01-15T10:00:30.000Z';
const OPERATOR: Actor = { type: 'operator', id: 'ops-alice' };

const order: TransactionInitiated['data'] = {
  orderId: ORDER,
  partnerId: 'ptr_1',
  environment: 'sandbox',
  amount: '100.00',
  currency: 'INR',
  reference: 'partner-ref',
  product: { kind: 'topup', operatorId: 101, phone: '+919876540001' },
  placedAt: PLACED,
};

// Commands
const initiate: TransactionCommand = { type: 'InitiateTransaction', order };
const submit: TransactionCommand = { type: 'RecordSubmission', providerReference: 'prov-9', at: PLACED };
const settle: TransactionCommand = { type: 'SettleTransaction', operatorRef: 'op-ref-1', at: LATER };
const fail: TransactionCommand = {
  type: 'FailTransaction',
  reason: 'operator declined',
  basis: 'provider_record',
  at: LATER,
};
const dispute: TransactionCommand = { type: 'HoldTransaction', reason: 'no answer from upstream', at: LATER };
const resolve = (outcome: 'success' | 'failed'): TransactionCommand => ({
  type: 'ResolveTransaction',
  outcome,
  reason: 'confirmed with the operator by phone',
  operator: OPERATOR,
  at: LATER,
});

// Events
const initiated: TransactionInitiated = { type: 'TransactionInitiated', data: order };
const submitted: TransactionSubmitted = {
  type: 'TransactionSubmitted',
  data: { orderId: ORDER, providerReference: 'prov-9', submittedAt: PLACED },
};
const settled: TransactionSettled = {
  type: 'TransactionSettled',
  data: { orderId: ORDER, operatorRef: 'op-ref-1', settledAt: LATER, resolvedBy: null, reason: null },
};
const failed: TransactionFailed = {
  type: 'TransactionFailed',
  data: { orderId: ORDER, reason: 'operator declined', failedAt: LATER, resolvedBy: null, basis: 'provider_record' },
};
const disputed: TransactionDisputed = {
  type: 'TransactionDisputed',
  data: { orderId: ORDER, reason: 'no answer from upstream', disputedAt: LATER },
};

const transaction = spec(transactionDecider);

describe('the life of an order', () => {
  describe('placing it', () => {
    it('starts as INITIATED with the order as placed', () => {
      const state = transaction.given().when(initiate).then(initiated);
      expect(state).toEqual({
        status: 'INITIATED',
        order,
        failure: null,
        lateAnswer: null,
        providerReference: null,
        resolvedManually: false,
        answerAfterOutcome: null,
        inDoubtSince: null,
        providerMayHaveIt: false,
        notSentAttempt: null,
        heldAt: null,
        mismatch: null,
        evidence: new Set(),
      });
    });

    it('placing the same order again changes nothing', () => {
      transaction.given(initiated).when(initiate).thenNothingHappens();
    });

    it('becomes PENDING once it has been handed to the upstream provider', () => {
      expect(transaction.given(initiated).when(submit).then(submitted).status).toBe('PENDING');
    });

    it('recording the hand-over twice changes nothing', () => {
      transaction.given(initiated, submitted).when(submit).thenNothingHappens();
    });
  });

  describe('its outcome', () => {
    it('succeeds with the operator reference when the upstream settles it', () => {
      expect(transaction.given(initiated, submitted).when(settle).then(settled).status).toBe('SUCCESS');
    });

    it('fails with the upstream reason when the upstream fails it', () => {
      expect(transaction.given(initiated, submitted).when(fail).then(failed).status).toBe('FAILED');
    });

    it('may settle before the hand-over was recorded (the provider answered at once)', () => {
      transaction.given(initiated).when(settle).then(settled);
    });

    it('a repeated success is a no-op', () => {
      transaction.given(initiated, submitted, settled).when(settle).thenNothingHappens();
    });

    it('a repeated failure is a no-op', () => {
      transaction.given(initiated, submitted, failed).when(fail).thenNothingHappens();
    });

    it('a succeeded order never fails afterwards: the contradicting answer is recorded for finance, once', () => {
      const contradiction: ProviderAnsweredAfterOutcome = {
        type: 'ProviderAnsweredAfterOutcome',
        data: {
          orderId: ORDER,
          outcome: 'failed',
          operatorRef: null,
          reason: 'operator declined',
          answeredAt: LATER,
          recordedStatus: 'SUCCESS',
          contradicts: true,
        },
      };
      const state = transaction.given(initiated, submitted, settled).when(fail).then(contradiction);
      expect(state.status).toBe('SUCCESS');
      transaction.given(initiated, submitted, settled, contradiction).when(fail).thenNothingHappens();
      transaction.given(initiated, submitted, settled, contradiction).when(settle).thenNothingHappens();
    });

    it('a failed order never succeeds afterwards: the contradicting answer is recorded for finance, once', () => {
      const contradiction: ProviderAnsweredAfterOutcome = {
        type: 'ProviderAnsweredAfterOutcome',
        data: {
          orderId: ORDER,
          outcome: 'succeeded',
          operatorRef: 'op-ref-1',
          reason: null,
          answeredAt: LATER,
          recordedStatus: 'FAILED',
          contradicts: true,
        },
      };
      expect(transaction.given(initiated, submitted, failed).when(settle).then(contradiction).status).toBe('FAILED');
      transaction.given(initiated, submitted, failed, contradiction).when(settle).thenNothingHappens();
    });

    it.each([
      ['failed', 'succeeded', true],
      ['success', 'failed', true],
      ['success', 'succeeded', false],
      ['failed', 'failed', false],
    ] as const)(
      'after an operator resolved a held order as %s, the provider answering %s is recorded (contradicts: %s) and changes nothing',
      (outcome, answer, contradicts) => {
        const resolution =
          outcome === 'failed'
            ? ({
                ...failed,
                data: { orderId: ORDER, reason: 'operator declined', failedAt: LATER, resolvedBy: OPERATOR },
              } satisfies TransactionFailed)
            : ({ ...settled, data: { ...settled.data, resolvedBy: OPERATOR } } satisfies TransactionSettled);
        const recordedStatus = outcome === 'failed' ? 'FAILED' : 'SUCCESS';
        const state = transaction
          .given(initiated, submitted, disputed, resolution)
          .when(answer === 'succeeded' ? settle : fail)
          .then({
            type: 'ProviderAnsweredAfterOutcome',
            data: {
              orderId: ORDER,
              outcome: answer,
              operatorRef: answer === 'succeeded' ? 'op-ref-1' : null,
              reason: answer === 'failed' ? 'operator declined' : null,
              answeredAt: LATER,
              recordedStatus,
              contradicts,
            },
          });
        expect(state.status).toBe(recordedStatus);
      },
    );

    it('a late hand-over record does not reopen a finished order', () => {
      transaction.given(initiated, settled).when(submit).thenNothingHappens();
    });
  });

  describe('held for manual resolution', () => {
    it('a stuck PENDING order is held as DISPUTED', () => {
      expect(transaction.given(initiated, submitted).when(dispute).then(disputed).status).toBe('DISPUTED');
    });

    it('an order never handed over can be held too', () => {
      transaction.given(initiated).when(dispute).then(disputed);
    });

    it('holding an order twice changes nothing', () => {
      transaction.given(initiated, submitted, disputed).when(dispute).thenNothingHappens();
    });

    it("a held order is decided by the provider's word whenever it comes: a success settles it, its record of a failure fails it", () => {
      const afterSuccess = transaction.given(initiated, submitted, disputed).when(settle).then(settled);
      expect(afterSuccess).toMatchObject({ status: 'SUCCESS', heldAt: LATER, resolvedManually: false });
      const afterFailure = transaction.given(initiated, submitted, disputed).when(fail).then(failed);
      expect(afterFailure).toMatchObject({ status: 'FAILED', heldAt: LATER });
    });

    it('a held order the provider may have is not failed on a refusal of one attempt: the refusal is kept as evidence', () => {
      transaction
        .given(initiated, submitted, disputed)
        .when({ type: 'FailTransaction', reason: 'recently recharged', basis: 'refused', at: LATER })
        .then({
          type: 'TransactionFailureWithheld',
          data: { orderId: ORDER, reason: 'recently recharged', basis: 'refused', at: LATER },
        });
    });

    it("every look-up of a held order is evidence, a 'still processing' answer included, and none changes its status", () => {
      const lookedUp = transaction
        .given(initiated, disputed)
        .when({ type: 'RecordLookUp', result: 'no transaction under ord_1 yet', at: LATER })
        .then({
          type: 'TransactionLookedUp',
          data: { orderId: ORDER, result: 'no transaction under ord_1 yet', at: LATER },
        });
      expect(lookedUp.status).toBe('DISPUTED');
      const processing = transaction
        .given(initiated, submitted, disputed)
        .when({ type: 'RecordSubmission', providerReference: 'prov-9', at: LATER })
        .then({
          type: 'TransactionLookedUp',
          data: { orderId: ORDER, result: 'the provider is still processing it (its reference prov-9)', at: LATER },
        });
      expect(processing.status).toBe('DISPUTED');
    });

    it('a held order nothing was ever sent of is still sent: a hand-over or an attempt in doubt is recorded, and it stays held', () => {
      const handedOver = transaction.given(initiated, disputed).when(submit).then(submitted);
      expect(handedOver).toMatchObject({ status: 'DISPUTED', providerMayHaveIt: true, providerReference: 'prov-9' });
      const inDoubt = transaction
        .given(initiated, disputed)
        .when({ type: 'RecordAttemptInDoubt', reason: 'no answer', at: LATER })
        .then({ type: 'TransactionAttemptInDoubt', data: { orderId: ORDER, reason: 'no answer', at: LATER } });
      expect(inDoubt).toMatchObject({ status: 'DISPUTED', providerMayHaveIt: true, inDoubtSince: LATER });
      transaction
        .given(initiated, disputed)
        .when({ type: 'RecordAttemptNotSent', attempt: 3, reason: 'HTTP 429', at: LATER })
        .then({
          type: 'TransactionAttemptNotSent',
          data: { orderId: ORDER, attempt: 3, reason: 'HTTP 429', at: LATER },
        });
    });

    it('a success that does not match the order holds an open order at once, with the mismatch kept once', () => {
      const mismatch = {
        reason: 'delivered 99.00 INR, not 100.00 INR',
        operatorRef: 'op-ref-2',
        transactionId: 'tx-2',
        amount: '99.00',
        currency: 'INR',
        at: LATER,
      };
      const state = transaction
        .given(initiated, submitted)
        .when({ type: 'HoldOnMismatch', mismatch })
        .then(
          { type: 'TransactionSuccessMismatched', data: { orderId: ORDER, ...mismatch } },
          {
            type: 'TransactionDisputed',
            data: {
              orderId: ORDER,
              reason: "the provider's success does not match the order: delivered 99.00 INR, not 100.00 INR",
              disputedAt: LATER,
            },
          },
        );
      expect(state).toMatchObject({ status: 'DISPUTED', mismatch: { transactionId: 'tx-2' } });
      transaction
        .given(initiated, disputed)
        .when({ type: 'HoldOnMismatch', mismatch })
        .then({ type: 'TransactionSuccessMismatched', data: { orderId: ORDER, ...mismatch } });
      transaction
        .given(initiated, disputed, { type: 'TransactionSuccessMismatched', data: { orderId: ORDER, ...mismatch } })
        .when({ type: 'HoldOnMismatch', mismatch })
        .thenNothingHappens();
    });

    it('a held order from a log written before held orders were followed settles on the provider success it had kept', () => {
      const lateSuccess: ProviderAnsweredAfterHold = {
        type: 'ProviderAnsweredAfterHold',
        data: { orderId: ORDER, outcome: 'succeeded', operatorRef: 'op-ref-1', reason: null, answeredAt: LATER },
      };
      transaction.given(initiated, submitted, disputed, lateSuccess).when(settle).then(settled);
    });

    it("a resolution records the provider's answer when it was asked, and an owner's override of it", () => {
      const providerAnswer = { word: 'pending' as const, detail: 'still processing', askedAt: LATER };
      transaction
        .given(initiated, submitted, disputed)
        .when({ ...resolve('failed'), providerAnswer, againstProvider: true } as TransactionCommand)
        .then({
          type: 'TransactionFailed',
          data: {
            orderId: ORDER,
            reason: 'confirmed with the operator by phone',
            failedAt: LATER,
            resolvedBy: OPERATOR,
            providerAnswer,
            againstProvider: true,
          },
        });
    });

    const lateSuccess: ProviderAnsweredAfterHold = {
      type: 'ProviderAnsweredAfterHold',
      data: { orderId: ORDER, outcome: 'succeeded', operatorRef: 'op-ref-1', reason: null, answeredAt: LATER },
    };
    const lateFailure: ProviderAnsweredAfterHold = {
      type: 'ProviderAnsweredAfterHold',
      data: { orderId: ORDER, outcome: 'failed', operatorRef: null, reason: 'operator declined', answeredAt: LATER },
    };

    it('an order the provider said succeeded after it was held cannot be failed and refunded; it can be resolved as a success', () => {
      transaction
        .given(initiated, submitted, disputed, lateSuccess)
        .when(resolve('failed'))
        .thenRefused('invalid_state', 'the provider answered that it succeeded (operator_ref op-ref-1)');
      transaction
        .given(initiated, submitted, disputed, lateSuccess)
        .when(resolve('success'))
        .then({
          type: 'TransactionSettled',
          data: {
            orderId: ORDER,
            operatorRef: `manual-${ORDER}`,
            settledAt: LATER,
            resolvedBy: OPERATOR,
            reason: 'confirmed with the operator by phone',
          },
        });
    });

    it('a late failure leaves the operator free to decide either way', () => {
      transaction
        .given(initiated, submitted, disputed, lateFailure)
        .when(resolve('failed'))
        .then({
          type: 'TransactionFailed',
          data: {
            orderId: ORDER,
            reason: 'confirmed with the operator by phone',
            failedAt: LATER,
            resolvedBy: OPERATOR,
          },
        });
    });

    it('a finished order is not held', () => {
      transaction.given(initiated, submitted, settled).when(dispute).thenNothingHappens();
      transaction.given(initiated, submitted, failed).when(dispute).thenNothingHappens();
    });

    it('an operator resolves a held order as a success, recorded with who did it and why', () => {
      transaction
        .given(initiated, submitted, disputed)
        .when(resolve('success'))
        .then({
          type: 'TransactionSettled',
          data: {
            orderId: ORDER,
            operatorRef: `manual-${ORDER}`,
            settledAt: LATER,
            resolvedBy: OPERATOR,
            reason: 'confirmed with the operator by phone',
          },
        });
    });

    it('an operator resolves a held order as a failure, recorded with who did it and why', () => {
      transaction
        .given(initiated, submitted, disputed)
        .when(resolve('failed'))
        .then({
          type: 'TransactionFailed',
          data: {
            orderId: ORDER,
            reason: 'confirmed with the operator by phone',
            failedAt: LATER,
            resolvedBy: OPERATOR,
          },
        });
    });

    it.each([
      ['INITIATED', [initiated]],
      ['PENDING', [initiated, submitted]],
      ['SUCCESS', [initiated, submitted, settled]],
      ['FAILED', [initiated, submitted, failed]],
    ])('an operator cannot resolve an order that is %s', (_status, history) => {
      transaction
        .given(...history)
        .when(resolve('failed'))
        .thenRefused('invalid_state', 'not held for manual resolution');
      transaction
        .given(...history)
        .when(resolve('success'))
        .thenRefused('invalid_state');
    });

    it('an operator cannot resolve the same order twice', () => {
      const resolvedAsFailure: TransactionFailed = {
        ...failed,
        data: { orderId: ORDER, reason: 'operator declined', failedAt: LATER, resolvedBy: OPERATOR },
      };
      transaction
        .given(initiated, submitted, disputed, resolvedAsFailure)
        .when(resolve('success'))
        .thenRefused('invalid_state');
    });
  });

  describe('an order that does not exist', () => {
    it.each([
      ['a hand-over', submit],
      ['a success', settle],
      ['a failure', fail],
      ['a hold', dispute],
      ['a manual resolution', resolve('success')],
    ])('refuses %s with not_found', (_what, command) => {
      transaction.given().when(command).thenRefused('not_found');
    });
  });

  describe('what a partner sees', () => {
    it.each<[TransactionStatus, string | null, string]>([
      ['INITIATED', null, 'PENDING'],
      ['PENDING', null, 'PENDING'],
      ['DISPUTED', null, 'PENDING'],
      ['SUCCESS', null, 'SUCCESS'],
      ['FAILED', LATER, 'FAILED'],
      ['FAILED', null, 'PENDING'],
    ])('an order that is %s inside, refunded at %s, is shown as %s', (inside, refundedAt, shown) => {
      expect(publicStatusOf(inside, refundedAt)).toBe(shown);
    });
  });
});
