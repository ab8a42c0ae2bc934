import {
  DEFINITIVE_REFUSALS,
  PAYMENT_STATUSES,
  verdictOfFetchFailure,
  verdictOfPayment,
  verdictOfRefusal,
} from '../../../../../src/infrastructure/providers/setu/setu-outcomes';

/** The table in docs/decisions/0049-setu-outcomes.md, as the code has it. */
describe('Setu statuses and error codes -> our outcomes', () => {
  it('maps the documented payment statuses, the transactions list writing Error for Failure', () => {
    expect(PAYMENT_STATUSES).toEqual({
      Success: 'succeeded',
      Failure: 'failed',
      Error: 'failed',
      Processing: 'processing',
    });
    expect(verdictOfPayment('Credit_Adjustment', null)).toBe('unknown');
    expect(verdictOfPayment('SUCCESS', null)).toBe('unknown');
  });

  it('does not take "the transaction could not be confirmed" as a failure, whatever the status beside it', () => {
    expect(verdictOfPayment('Failure', { code: 'npci-connectivity-timeout', message: null, type: 'BBPS' })).toBe(
      'unknown',
    );
    expect(
      verdictOfPayment('Failure', { code: 'BRR005', message: 'Biller not accepting payments', type: 'BBPS' }),
    ).toBe('failed');
    expect(
      verdictOfPayment('Failure', { code: 'bank-connectivity-timeout', message: null, type: 'FUND_TRANSFER' }),
    ).toBe('failed');
  });

  it('takes a listed code on a 400 as a refusal before anything was taken', () => {
    for (const code of DEFINITIVE_REFUSALS) expect(verdictOfRefusal(400, code)).toBe('failed');
    expect(verdictOfRefusal(400, 'insufficient-funds')).toBe('failed');
    expect(verdictOfRefusal(400, 'invalid-amount')).toBe('failed');
  });

  it('leaves everything else unknown: 5xx, 401, 403, internal errors, core banking, timeouts, unlisted codes, no code', () => {
    expect(verdictOfRefusal(500, 'invalid-amount')).toBe('unknown');
    expect(verdictOfRefusal(503, null)).toBe('unknown');
    expect(verdictOfRefusal(401, 'unauthorized')).toBe('unknown');
    expect(verdictOfRefusal(403, 'forbidden')).toBe('unknown');
    expect(verdictOfRefusal(400, 'internal-error')).toBe('unknown');
    expect(verdictOfRefusal(400, 'core-banking-error')).toBe('unknown');
    expect(verdictOfRefusal(400, 'npci-connectivity-timeout')).toBe('unknown');
    expect(verdictOfRefusal(400, 'bank-connectivity-timeout')).toBe('unknown');
    expect(verdictOfRefusal(400, 'something-new')).toBe('unknown');
    expect(verdictOfRefusal(400, null)).toBe('unknown');
  });

  it('tells a failed fetch apart: no bill due, an unknown consumer, or a fault', () => {
    expect(verdictOfFetchFailure({ code: 'BFR004', message: null })).toBe('no_bill_due');
    expect(
      verdictOfFetchFailure({ code: 'BFR999', message: 'Payment received for the billing period - no bill due' }),
    ).toBe('no_bill_due');
    expect(verdictOfFetchFailure({ code: 'ERR004', message: 'customer not found' })).toBe('unknown_consumer');
    expect(verdictOfFetchFailure({ code: 'invalid-customer-param', message: null })).toBe('unknown_consumer');
    expect(verdictOfFetchFailure({ code: 'BRR005', message: 'Biller not accepting requests' })).toBe('unavailable');
    expect(verdictOfFetchFailure({ code: null, message: null })).toBe('unavailable');
  });
});
