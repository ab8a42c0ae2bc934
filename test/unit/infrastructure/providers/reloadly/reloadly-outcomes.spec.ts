import {
  DEFINITIVE_REFUSALS,
  PAYMENT_STATUSES,
  TOPUP_STATUSES,
  verdictOfRefusal,
} from '../../../../../src/infrastructure/providers/reloadly/reloadly-outcomes';

/** The table in docs/decisions/0042-reloadly-outcomes.md, as the code has it. */
describe('Reloadly statuses and error codes -> our outcomes', () => {
  it('maps every documented transaction status', () => {
    expect(TOPUP_STATUSES).toEqual({
      SUCCESSFUL: 'succeeded',
      FAILED: 'failed',
      REFUNDED: 'failed',
      PROCESSING: 'processing',
      PENDING: 'processing',
    });
    expect(PAYMENT_STATUSES).toEqual({
      SUCCESSFUL: 'succeeded',
      FAILED: 'failed',
      REFUNDED: 'failed',
      PROCESSING: 'processing',
    });
  });

  it('takes a listed error code on a 4xx as a definitive refusal', () => {
    for (const code of DEFINITIVE_REFUSALS) expect(verdictOfRefusal(400, code)).toBe('failed');
    expect(verdictOfRefusal(400, 'INSUFFICIENT_BALANCE')).toBe('failed');
  });

  it('leaves everything else unknown: "may fail for various reasons", "cannot be processed at the moment", a rate limit, a repeated identifier, token errors, 5xx, codes not documented, no code', () => {
    expect(DEFINITIVE_REFUSALS.has('TOPUP_TRANSACTION_FAILED')).toBe(false);
    expect(verdictOfRefusal(400, 'TOPUP_TRANSACTION_FAILED')).toBe('unknown');
    expect(verdictOfRefusal(400, 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT')).toBe('unknown');
    expect(verdictOfRefusal(429, 'RATE_LIMIT_REACHED')).toBe('unknown');
    expect(verdictOfRefusal(409, 'DUPLICATE_CUSTOM_IDENTIFIER')).toBe('unknown');
    expect(verdictOfRefusal(401, 'TOKEN_EXPIRED')).toBe('unknown');
    expect(verdictOfRefusal(500, 'INVALID_AMOUNT_FOR_OPERATOR')).toBe('unknown');
    expect(verdictOfRefusal(503, null)).toBe('unknown');
    expect(verdictOfRefusal(400, 'SOMETHING_NEW')).toBe('unknown');
    expect(verdictOfRefusal(400, null)).toBe('unknown');
  });
});
