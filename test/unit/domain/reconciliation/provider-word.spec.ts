import { contradictsProvider, providerWordOf } from '../../../../src/domain/reconciliation/provider-word';
import { ReconciliationMismatchFound } from '../../../../src/domain/reconciliation/reconciliation.events';
import { UpstreamTransaction } from '../../../../src/domain/reconciliation/reconciliation';

const upstream = (status: UpstreamTransaction['status']): UpstreamTransaction => ({
  customIdentifier: 'ord_1',
  transactionId: `t-${status}`,
  status,
  amount: '199.00',
  currency: 'INR',
  at: '2026-11-20T10:00:00Z',
});
const finding = (
  foundAt: string,
  seen: UpstreamTransaction | null,
  kind: ReconciliationMismatchFound['data']['kind'] = 'status_mismatch',
): ReconciliationMismatchFound['data'] => ({
  provider: 'reloadly',
  date: '2026-11-20',
  kind,
  orderId: 'ord_1',
  upstream: seen,
  ours: null,
  detail: 'x',
  foundAt,
});

describe('what the provider last said of an order, and a manual resolution that contradicts it', () => {
  it('takes the most recent finding that saw the provider’s transaction, whatever order they come in', () => {
    const paid = finding('2026-11-21T02:00:00Z', upstream('succeeded'));
    const reversed = finding('2026-11-23T02:00:00Z', upstream('failed'));
    const unseen = finding('2026-11-24T02:00:00Z', null, 'ours_only');
    expect(providerWordOf([paid, reversed, unseen])?.status).toBe('failed');
    expect(providerWordOf([reversed, paid])?.status).toBe('failed');
    expect(providerWordOf([unseen])).toBeNull();
    expect(providerWordOf([])).toBeNull();
  });

  it('failing an order the provider reports paid, or settling one it reports failed, contradicts it', () => {
    expect(contradictsProvider('failed', upstream('succeeded'))).toBe(true);
    expect(contradictsProvider('success', upstream('failed'))).toBe(true);
    expect(contradictsProvider('success', upstream('succeeded'))).toBe(false);
    expect(contradictsProvider('failed', upstream('failed'))).toBe(false);
    expect(contradictsProvider('failed', upstream('pending'))).toBe(false);
    expect(contradictsProvider('success', upstream('pending'))).toBe(false);
    expect(contradictsProvider('failed', null)).toBe(false);
  });
});
