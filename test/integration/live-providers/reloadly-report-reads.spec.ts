import { UnreadableReportError } from '../../../src/application/ports/provider-back-office.port';
import { ProviderOrder, ProviderUnavailableError } from '../../../src/application/ports/provider-gateway.port';
import { ReloadlyConfig } from '../../../src/config/service-config';
import { ReloadlyBackOffice } from '../../../src/infrastructure/providers/reloadly/reloadly-back-office';
import { ReloadlyLiveProvider } from '../../../src/infrastructure/providers/reloadly/reloadly-live-provider';
import { RunningSimulator, startSimulator } from '../../../tools/provider-sim/simulator';

const PAGE_SIZE = 2;
const TOPUPS = 7; // four pages of topups, and one (empty) of payments

/**
 * Reloadly's transaction report as reconciliation reads it, against the protocol simulator over
 * HTTP: every page has a timeout of its own (a long report of pages that each come in time is read
 * whole; a page that does not come fails the read and says which), and a date that does not read
 * fails the read naming the transaction and the text (docs/decisions/0123-scheduled-reconciliation.md).
 */
describe('reading Reloadly’s transaction report page by page (simulator over HTTP)', () => {
  let simulator: RunningSimulator;
  let live: ReloadlyLiveProvider;
  const window = () => ({ from: new Date(Date.now() - 60_000), to: new Date(Date.now() + 60_000) });

  beforeAll(async () => {
    simulator = await startSimulator({ seed: 23, settleAfterMs: 0, maxPageSize: PAGE_SIZE, recentRechargeMs: 0 });
    const config: ReloadlyConfig = {
      clientId: 'client',
      clientSecret: 'secret',
      authUrl: simulator.authUrl,
      topupsUrl: simulator.topupsUrl,
      utilitiesUrl: simulator.utilitiesUrl,
      lowFloatThreshold: null,
      reportTimeZone: 'America/New_York',
    };
    live = new ReloadlyLiveProvider(config);
    for (let i = 1; i <= TOPUPS; i++) {
      const order: ProviderOrder = {
        orderId: `ord_page_${i}`,
        amount: '199.00',
        currency: 'INR',
        placedAt: new Date().toISOString(),
        product: { kind: 'topup', operatorId: 101, phone: `+91987600${String(i).padStart(2, '0')}01` },
        route: { provider: 'reloadly', upstreamId: '1201' },
      };
      expect(await live.provider.submit(order, new Date())).toMatchObject({ status: 'succeeded' });
    }
  });
  afterAll(async () => {
    await simulator?.close();
  });
  afterEach(() => {
    simulator.state.reportPageDelayMs = 0;
    for (const transaction of simulator.state.transactions) delete transaction.writtenDate;
  });

  it('gives each page its own timeout: a report whose pages each come in time is read whole, however long it takes', async () => {
    simulator.state.reportPageDelayMs = 400;
    const started = Date.now();
    const read = await new ReloadlyBackOffice(live.api, 1_500).transactions(window().from, window().to);
    // Five pages of 400 ms: longer than one page's timeout, which a single budget for the read would have cut.
    expect(Date.now() - started).toBeGreaterThan(1_500);
    expect(read.map((transaction) => transaction.customIdentifier).sort()).toEqual(
      Array.from({ length: TOPUPS }, (_, i) => `ord_page_${i + 1}`).sort(),
    );
  });

  it('fails the read, naming the page, when one page does not come within its timeout', async () => {
    simulator.state.reportPageDelayMs = 2_000;
    const failure = await new ReloadlyBackOffice(live.api, 400)
      .transactions(window().from, window().to)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderUnavailableError);
    expect((failure as Error).message).toBe(
      'reloadly: page 1 of GET /topups/reports/transactions got no answer within 400 ms (each page has its own deadline)',
    );
  });

  it('fails the read with the transaction and the text when a date does not read, instead of dropping it from the day', async () => {
    const unreadable = simulator.state.transactions.find((transaction) => transaction.reference === 'ord_page_5');
    unreadable!.writtenDate = '2026-13-45 25:00:00';
    const failure = await live.backOffice.transactions(window().from, window().to).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnreadableReportError);
    expect((failure as Error).message).toBe(
      `reloadly: topup ${unreadable!.id} (ord_page_5) of the transaction report has a transactionDate that is not a time: "2026-13-45 25:00:00"`,
    );
  });
});
