import { Actor } from '../../../../src/domain/shared/actor';
import { TransactionCommand, transactionDecider } from '../../../../src/domain/transaction/transaction.decider';
import {
  FailureBasis,
  ProviderAnsweredAfterOutcome,
  TransactionAttemptInDoubt,
  TransactionAttemptNotSent,
  TransactionDisputed,
  TransactionFailed,
  TransactionInitiated,
  TransactionSettled,
  TransactionSubmitted,
} from '../../../../src/domain/transaction/transaction.events';
import { spec } from '../../../support/decider-spec';

const ORDER = 'ord_doubt';
const PLACED = '2026-03-02T10:00:00.000Z';
const TIMED_OUT = '2026-03-02T10:00:21.000Z';
const RETRIED = '2026-03-02T10:00:23.000Z';
const LATER = '2026-03-02T10:11:00.000Z';
const OPERATOR: Actor = { type: 'operator', id: 'ops-alice' };

const order: TransactionInitiated['data'] = {
  orderId: ORDER,
  partnerId: 'ptr_1',
  environment: 'live',
  amount: '199.00',
  currency: 'INR',
  reference: null,
  product: { kind: 'topup', operatorId: 101, phone: '+919876540012' },
  placedAt: PLACED,
  route: { provider: 'reloadly', upstreamId: '1201' },
};

const initiated: TransactionInitiated = { type: 'TransactionInitiated', data: order };
const inDoubt: TransactionAttemptInDoubt = {
  type: 'TransactionAttemptInDoubt',
  data: { orderId: ORDER, reason: 'the provider did not answer within 20000 ms', at: TIMED_OUT },
};
const submitted: TransactionSubmitted = {
  type: 'TransactionSubmitted',
  data: { orderId: ORDER, providerReference: '10042', submittedAt: PLACED },
};
const disputed: TransactionDisputed = {
  type: 'TransactionDisputed',
  data: { orderId: ORDER, reason: 'no final outcome from the provider after 900 s', disputedAt: LATER },
};
const settled: TransactionSettled = {
  type: 'TransactionSettled',
  data: { orderId: ORDER, operatorRef: 'OP-1', settledAt: LATER, resolvedBy: null, reason: null },
};

const failWith = (basis: FailureBasis, reason = `failure resting on ${basis}`, at = RETRIED): TransactionCommand => ({
  type: 'FailTransaction',
  reason,
  basis,
  at,
});
const failedWith = (basis: FailureBasis, reason = `failure resting on ${basis}`, at = RETRIED): TransactionFailed => ({
  type: 'TransactionFailed',
  data: { orderId: ORDER, reason, failedAt: at, resolvedBy: null, basis },
});
const withheld = (basis: 'not_sent' | 'refused', reason = `failure resting on ${basis}`, at = RETRIED) => ({
  type: 'TransactionFailureWithheld' as const,
  data: { orderId: ORDER, reason, basis, at },
});

const transaction = spec(transactionDecider);

describe('an order whose attempt may have reached the provider (the money rule)', () => {
  describe('before any attempt is in doubt', () => {
    it.each<FailureBasis>(['not_sent', 'refused', 'provider_record', 'absence_confirmed'])(
      'a failure resting on %s fails the order (and so refunds it)',
      (basis) => {
        expect(transaction.given(initiated).when(failWith(basis)).then(failedWith(basis)).status).toBe('FAILED');
      },
    );

    it('a submission that sent nothing is recorded with its run number and leaves the order out of doubt', () => {
      const notSent: TransactionAttemptNotSent = {
        type: 'TransactionAttemptNotSent',
        data: { orderId: ORDER, attempt: 1, reason: 'the breaker is open; nothing was sent', at: TIMED_OUT },
      };
      const state = transaction
        .given(initiated)
        .when({ type: 'RecordAttemptNotSent', attempt: 1, reason: notSent.data.reason, at: TIMED_OUT })
        .then(notSent);
      expect(state).toMatchObject({ notSentAttempt: 1, inDoubtSince: null, providerMayHaveIt: false });
      transaction.given(initiated, notSent).when(failWith('refused')).then(failedWith('refused'));
    });

    it('a look-up that found nothing is not recorded for an order no attempt of which may have reached the provider', () => {
      transaction
        .given(initiated)
        .when({ type: 'RecordLookUp', result: 'no transaction under ord_doubt', at: RETRIED })
        .thenNothingHappens();
    });
  });

  describe('once an attempt is in doubt', () => {
    it('the attempt is recorded, and the first one starts the doubt', () => {
      const state = transaction
        .given(initiated)
        .when({ type: 'RecordAttemptInDoubt', reason: inDoubt.data.reason, at: TIMED_OUT })
        .then(inDoubt);
      expect(state).toMatchObject({ status: 'INITIATED', inDoubtSince: TIMED_OUT, providerMayHaveIt: true });
      const again: TransactionAttemptInDoubt = {
        type: 'TransactionAttemptInDoubt',
        data: { orderId: ORDER, reason: 'a submission run stopped midway', at: RETRIED },
      };
      const after = transaction
        .given(initiated, inDoubt)
        .when({ type: 'RecordAttemptInDoubt', reason: again.data.reason, at: RETRIED })
        .then(again);
      expect(after.inDoubtSince).toBe(TIMED_OUT);
    });

    it.each([
      [
        'the two-minute rule refusing the retry',
        'refused',
        'reloadly refused the order: HTTP 400 PHONE_RECENTLY_RECHARGED',
      ],
      [
        'the provider float drawn by the first attempt',
        'refused',
        'reloadly refused the order: HTTP 400 INSUFFICIENT_BALANCE',
      ],
      ['our own float pre-check', 'not_sent', 'the provider float (0.10 USD) cannot cover the order; it was not sent'],
      ['a route that disappeared', 'not_sent', 'no reloadly route for operator 101'],
    ] as const)('%s does not fail it: the failure is withheld and kept as evidence', (_what, basis, reason) => {
      const state = transaction.given(initiated, inDoubt).when(failWith(basis, reason)).then(withheld(basis, reason));
      expect(state).toMatchObject({ status: 'INITIATED', failure: null });
    });

    it('the provider’s own record of the order failing or refunding it fails the order', () => {
      transaction
        .given(initiated, inDoubt)
        .when(failWith('provider_record', 'reloadly topup 10042 REFUNDED'))
        .then(failedWith('provider_record', 'reloadly topup 10042 REFUNDED'));
    });

    it('the provider’s report confirming absence after its look-up window fails the order', () => {
      transaction
        .given(initiated, inDoubt)
        .when(failWith('absence_confirmed', 'no transaction under ord_doubt', LATER))
        .then(failedWith('absence_confirmed', 'no transaction under ord_doubt', LATER));
    });

    it('a success settles it', () => {
      transaction
        .given(initiated, inDoubt)
        .when({ type: 'SettleTransaction', operatorRef: 'OP-1', at: LATER })
        .then(settled);
    });

    it('a look-up that found nothing is recorded as evidence', () => {
      transaction
        .given(initiated, inDoubt)
        .when({ type: 'RecordLookUp', result: 'no transaction under ord_doubt yet', at: RETRIED })
        .then({
          type: 'TransactionLookedUp',
          data: { orderId: ORDER, result: 'no transaction under ord_doubt yet', at: RETRIED },
        });
    });

    it('a later submission run that sent nothing does not lift the doubt', () => {
      const state = transaction
        .given(initiated, inDoubt)
        .when({ type: 'RecordAttemptNotSent', attempt: 3, reason: 'rate limited', at: RETRIED })
        .then({
          type: 'TransactionAttemptNotSent',
          data: { orderId: ORDER, attempt: 3, reason: 'rate limited', at: RETRIED },
        });
      expect(state.inDoubtSince).toBe(TIMED_OUT);
      transaction
        .given(initiated, inDoubt, {
          type: 'TransactionAttemptNotSent',
          data: { orderId: ORDER, attempt: 3, reason: 'rate limited', at: RETRIED },
        })
        .when(failWith('refused'))
        .then(withheld('refused'));
    });

    describe('evidence already recorded is not recorded again (its event id would be the same)', () => {
      const lookedUp = {
        type: 'TransactionLookedUp' as const,
        data: { orderId: ORDER, result: 'no transaction under ord_doubt yet', at: RETRIED },
      };
      const notSent: TransactionAttemptNotSent = {
        type: 'TransactionAttemptNotSent',
        data: { orderId: ORDER, attempt: 3, reason: 'rate limited', at: RETRIED },
      };

      it('the same attempt in doubt at the same moment', () => {
        transaction
          .given(initiated, inDoubt)
          .when({ type: 'RecordAttemptInDoubt', reason: 'the provider did not answer within 20000 ms', at: TIMED_OUT })
          .thenNothingHappens();
      });

      it('the same look-up at the same moment, also when a held order is handed over again', () => {
        transaction
          .given(initiated, inDoubt, lookedUp)
          .when({ type: 'RecordLookUp', result: 'no transaction under ord_doubt yet', at: RETRIED })
          .thenNothingHappens();
        transaction
          .given(initiated, submitted, disputed, {
            type: 'TransactionLookedUp',
            data: { orderId: ORDER, result: 'the provider is still processing it (its reference 10042)', at: RETRIED },
          })
          .when({ type: 'RecordSubmission', providerReference: '10042', at: RETRIED })
          .thenNothingHappens();
      });

      it('the same withheld failure at the same moment', () => {
        transaction.given(initiated, inDoubt, withheld('refused')).when(failWith('refused')).thenNothingHappens();
      });

      it('the same submission run that sent nothing', () => {
        transaction
          .given(initiated, notSent)
          .when({ type: 'RecordAttemptNotSent', attempt: 3, reason: 'rate limited', at: LATER })
          .thenNothingHappens();
      });

      it('while evidence of another moment or run is recorded', () => {
        transaction
          .given(initiated, inDoubt, lookedUp)
          .when({ type: 'RecordLookUp', result: 'no transaction under ord_doubt yet', at: LATER })
          .then({ ...lookedUp, data: { ...lookedUp.data, at: LATER } });
        transaction
          .given(initiated, notSent)
          .when({ type: 'RecordAttemptNotSent', attempt: 4, reason: 'rate limited', at: RETRIED })
          .then({ ...notSent, data: { ...notSent.data, attempt: 4 } });
      });
    });

    it('at the stuck-order limit it is held for an operator, and a refusal then is still only evidence', () => {
      expect(
        transaction
          .given(initiated, inDoubt)
          .when({ type: 'HoldTransaction', reason: disputed.data.reason, at: LATER })
          .then(disputed).status,
      ).toBe('DISPUTED');
      transaction.given(initiated, inDoubt, disputed).when(failWith('refused')).then(withheld('refused'));
    });

    it('an operator may still resolve the held order as failed: that is the operator’s decision, recorded as such', () => {
      transaction
        .given(initiated, inDoubt, disputed)
        .when({
          type: 'ResolveTransaction',
          outcome: 'failed',
          reason: 'Reloadly support confirmed it never arrived',
          operator: OPERATOR,
          at: LATER,
        })
        .then({
          type: 'TransactionFailed',
          data: {
            orderId: ORDER,
            reason: 'Reloadly support confirmed it never arrived',
            failedAt: LATER,
            resolvedBy: OPERATOR,
          },
        });
    });
  });

  describe('once the provider acknowledged the order (PENDING)', () => {
    it.each<'not_sent' | 'refused'>(['not_sent', 'refused'])('a failure resting on %s is withheld', (basis) => {
      expect(transaction.given(initiated, submitted).when(failWith(basis)).then(withheld(basis)).status).toBe(
        'PENDING',
      );
    });

    it('its record failing it fails the order', () => {
      transaction.given(initiated, submitted).when(failWith('provider_record')).then(failedWith('provider_record'));
    });
  });

  describe('after the outcome', () => {
    it('a refusal of an attempt says nothing about the order and records nothing', () => {
      transaction.given(initiated, inDoubt, settled).when(failWith('refused')).thenNothingHappens();
      transaction.given(initiated, inDoubt, settled).when(failWith('not_sent')).thenNothingHappens();
    });

    it('the provider’s record contradicting a success is recorded for finance', () => {
      const contradiction: ProviderAnsweredAfterOutcome = {
        type: 'ProviderAnsweredAfterOutcome',
        data: {
          orderId: ORDER,
          outcome: 'failed',
          operatorRef: null,
          reason: 'failure resting on provider_record',
          answeredAt: RETRIED,
          recordedStatus: 'SUCCESS',
          contradicts: true,
        },
      };
      transaction.given(initiated, inDoubt, settled).when(failWith('provider_record')).then(contradiction);
    });

    it('attempts and look-ups record nothing any more', () => {
      transaction
        .given(initiated, inDoubt, settled)
        .when({ type: 'RecordAttemptInDoubt', reason: 'late', at: LATER })
        .thenNothingHappens();
      transaction
        .given(initiated, inDoubt, settled)
        .when({ type: 'RecordLookUp', result: 'late', at: LATER })
        .thenNothingHappens();
      transaction
        .given(initiated, inDoubt, settled)
        .when({ type: 'RecordAttemptNotSent', attempt: 4, reason: 'late', at: LATER })
        .thenNothingHappens();
    });
  });
});
