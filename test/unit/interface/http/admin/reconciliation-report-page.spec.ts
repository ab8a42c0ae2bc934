import { countsOf } from '../../../../../src/application/reconciliation/reconciliation-report';
import { Finding } from '../../../../../src/domain/reconciliation/reconciliation';
import { reconciliationReportPage } from '../../../../../src/interface/http/admin/reconciliation-report-page';
import { reconciliationReportResource } from '../../../../../src/interface/http/admin/reconciliation-resources';

const reportOf = (input: {
  provider: string;
  date: string;
  complete: boolean;
  generatedAt: string;
  recorded: number;
  findings: Finding[];
}) => reconciliationReportResource({ ...input, counts: countsOf(input.findings) });

describe('the reconciliation page', () => {
  it('shows what the provider sent as text, never as markup', () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const report = reportOf({
      provider: 'reloadly',
      date: '2026-11-24',
      complete: true,
      generatedAt: '2026-11-25T06:00:00.000Z',
      recorded: 1,
      findings: [
        {
          kind: 'provider_only',
          orderId: hostile,
          partnerId: null,
          ours: null,
          upstream: {
            customIdentifier: hostile,
            transactionId: '"><b>1</b>',
            status: 'succeeded',
            amount: '10',
            currency: 'INR',
            at: '2026-11-24T10:00:00.000Z',
          },
          detail: `upstream transaction for ${hostile}`,
        },
      ],
    });
    const page = reconciliationReportPage(report);
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<b>1</b>');
    expect(page).toContain('&#60;img src=x onerror=alert(1)&#62;');
    expect(page).toContain('1 mismatch(es)');
  });

  it('says so when everything matches, and lists no table of mismatches', () => {
    const page = reconciliationReportPage(
      reportOf({
        provider: 'reloadly',
        date: '2026-11-24',
        complete: false,
        generatedAt: '2026-11-24T12:00:00.000Z',
        recorded: 0,
        findings: [],
      }),
    );
    expect(page).toContain('id="verdict">Every transaction of the day matches');
    expect(page).toContain('id="partial"');
    expect(page).not.toContain('id="mismatches"');
  });
});
