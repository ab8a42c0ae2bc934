import { OwnOrder, UpstreamTransaction, reconcile } from '../../../../src/domain/reconciliation/reconciliation';

const DAY = { start: new Date('2026-11-24T00:00:00.000Z'), end: new Date('2026-11-25T00:00:00.000Z') };
const NOON = '2026-11-24T12:00:00.000Z';

const theirs = (
  customIdentifier: string | null,
  transactionId: string,
  status: UpstreamTransaction['status'],
  amount = '199',
  at = NOON,
  currency = 'INR',
): UpstreamTransaction => ({
  customIdentifier,
  transactionId,
  status,
  amount,
  currency,
  at,
});
const ours = (orderId: string, status: OwnOrder['status'], amount = '199.00', placedAt = NOON): OwnOrder => ({
  orderId,
  partnerId: 'ptr_1',
  status,
  amount,
  currency: 'INR',
  placedAt,
  operatorRef: null,
});

const kinds = (findings: ReturnType<typeof reconcile>) => findings.map((finding) => [finding.kind, finding.orderId]);

describe('reconciling a provider report with our orders by the identifier we sent', () => {
  it('a success on both sides for the same amount is matched, whatever the decimal notation; so is a failure on both', () => {
    expect(
      kinds(
        reconcile(
          DAY,
          [theirs('ord_1', 't1', 'succeeded', '199'), theirs('ord_2', 't2', 'failed')],
          [ours('ord_1', 'SUCCESS', '199.00'), ours('ord_2', 'FAILED')],
        ),
      ),
    ).toEqual([
      ['matched', 'ord_1'],
      ['matched', 'ord_2'],
    ]);
  });

  it('a success for another amount, or in another currency, is an amount mismatch', () => {
    const findings = reconcile(
      DAY,
      [theirs('ord_1', 't1', 'succeeded', '200'), theirs('ord_2', 't2', 'succeeded', '199', NOON, 'USD')],
      [ours('ord_1', 'SUCCESS'), ours('ord_2', 'SUCCESS')],
    );
    expect(kinds(findings)).toEqual([
      ['amount_mismatch', 'ord_1'],
      ['amount_mismatch', 'ord_2'],
    ]);
    expect(findings[0].detail).toBe('the provider took 200 INR, the order is for 199.00 INR');
  });

  it('a payment upstream that is not an order of ours is provider-only; a failed one moved no money and is left out', () => {
    const findings = reconcile(
      DAY,
      [theirs('ord_unknown', 't1', 'succeeded'), theirs(null, 't2', 'pending'), theirs('ord_other', 't3', 'failed')],
      [],
    );
    expect(kinds(findings)).toEqual([
      ['provider_only', 'ord_unknown'],
      ['provider_only', 'upstream:t2'],
    ]);
  });

  it('a second upstream transaction for one of our orders is provider-only: that payment is not the one we know', () => {
    const findings = reconcile(
      DAY,
      [
        theirs('ord_1', 't1', 'succeeded', '199', '2026-11-24T10:00:00.000Z'),
        theirs('ord_1', 't2', 'succeeded', '199', '2026-11-24T11:00:00.000Z'),
      ],
      [ours('ord_1', 'SUCCESS')],
    );
    expect(kinds(findings)).toEqual([
      ['matched', 'ord_1'],
      ['provider_only', 'ord_1'],
    ]);
    expect(findings[1].partnerId).toBe('ptr_1');
  });

  it('a SUCCESS of ours that the provider has no transaction for is ours-only; open and failed orders are not', () => {
    expect(
      kinds(reconcile(DAY, [], [ours('ord_1', 'SUCCESS'), ours('ord_2', 'PENDING'), ours('ord_3', 'FAILED')])),
    ).toEqual([['ours_only', 'ord_1']]);
  });

  it('a different final status on each side is a status disagreement; open on both sides is matched', () => {
    const findings = reconcile(
      DAY,
      [
        theirs('ord_1', 't1', 'succeeded'),
        theirs('ord_2', 't2', 'failed'),
        theirs('ord_3', 't3', 'succeeded'),
        theirs('ord_4', 't4', 'pending'),
      ],
      [ours('ord_1', 'FAILED'), ours('ord_2', 'SUCCESS'), ours('ord_3', 'DISPUTED'), ours('ord_4', 'PENDING')],
    );
    expect(kinds(findings)).toEqual([
      ['status_mismatch', 'ord_1'],
      ['status_mismatch', 'ord_2'],
      ['status_mismatch', 'ord_3'],
      ['matched', 'ord_4'],
    ]);
    expect(findings[0].detail).toBe('the provider says succeeded, the order is FAILED here');
  });

  it('an order held or still open here while the provider reports it final is a status disagreement, whichever way it went', () => {
    const findings = reconcile(
      DAY,
      [
        theirs('ord_held_paid', 't1', 'succeeded'),
        theirs('ord_held_failed', 't2', 'failed'),
        theirs('ord_open_paid', 't3', 'succeeded'),
        theirs('ord_new_failed', 't4', 'failed'),
        theirs('ord_held_pending', 't5', 'pending'),
      ],
      [
        ours('ord_held_paid', 'DISPUTED'),
        ours('ord_held_failed', 'DISPUTED'),
        ours('ord_open_paid', 'PENDING'),
        ours('ord_new_failed', 'INITIATED'),
        ours('ord_held_pending', 'DISPUTED'),
      ],
    );
    expect(kinds(findings)).toEqual([
      ['status_mismatch', 'ord_held_paid'],
      ['status_mismatch', 'ord_held_failed'],
      ['status_mismatch', 'ord_open_paid'],
      ['status_mismatch', 'ord_new_failed'],
      ['matched', 'ord_held_pending'],
    ]);
    expect(findings[0].detail).toBe('the provider says succeeded, the order is DISPUTED here');
    expect(findings[1].detail).toBe('the provider says failed, the order is DISPUTED here');
  });

  it('a day judged again once the provider has decided a held order finds the disagreement it could not see before', () => {
    const held = ours('ord_held', 'DISPUTED');
    expect(kinds(reconcile(DAY, [theirs('ord_held', 't1', 'pending')], [held]))).toEqual([['matched', 'ord_held']]);
    expect(kinds(reconcile(DAY, [theirs('ord_held', 't1', 'succeeded')], [held]))).toEqual([
      ['status_mismatch', 'ord_held'],
    ]);
  });

  it('judges only transactions dated in the day, and finds an order placed before midnight that the provider dates after it', () => {
    const lateOrder = ours('ord_late', 'SUCCESS', '199.00', '2026-11-24T23:59:59.000Z');
    const findings = reconcile(
      DAY,
      [
        theirs('ord_late', 't1', 'succeeded', '199', '2026-11-25T00:00:02.000Z'),
        theirs('ord_prev', 't0', 'succeeded', '199', '2026-11-23T23:00:00.000Z'),
      ],
      [lateOrder],
    );
    expect(findings).toEqual([]);
  });
});
