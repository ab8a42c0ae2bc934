import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expectRefusal } from '../../support/error-assertions';
import {
  LiveUpstream,
  liveWalletPartner,
  routeToSimulator,
  setRoute,
  startLiveUpstream,
} from '../../support/live-provider';
import {
  SetuUpstream,
  bescom,
  billInfo,
  payBill,
  routeBillsToSetu,
  startSetuUpstream,
} from '../../support/setu-upstream';
import { TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';
import { waitForAsync } from '../../support/wait-for';

/** What a partner answer must never show: a provider's name, an upstream path or URL, a breaker state. */
const PROVIDER_WORDS = /reloadly|setu|sandbox provider|dtone|https?:|\/api\/|\/v\d\/|\/topups|\/bills|circuit|breaker/i;

const expectNeutral = (text: string) => expect(text).not.toMatch(PROVIDER_WORDS);

/**
 * Partner-facing text names no provider, upstream path, breaker state or provider text
 * (docs/decisions/0130-neutral-provider-errors.md); the admin view of the same order keeps the provider's reason.
 */
describe('partner answers name no provider (Reloadly simulator over HTTP)', () => {
  let upstream: LiveUpstream;
  let service: TestService;
  let liveKey = '';

  beforeAll(async () => {
    upstream = await startLiveUpstream();
    service = await TestService.start({ store: 'postgres', env: { ...upstream.env, PROVIDER_TIMEOUT_MS: '1000' } });
    await routeToSimulator(service);
    ({ liveKey } = await liveWalletPartner(service));
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
    await upstream?.close();
  });

  it('a topup the provider refuses reads FAILED with no provider words; the admin view keeps the reason', async () => {
    const placed = await service.topup(liveKey, { operator_id: 101, phone: '+919876540002', amount: 100 }, 'neutral-1');
    expect(placed.status).toBe(200);
    const orderId = placed.body.order_id as string;
    await service.settle();
    const read = () => service.partner('GET', `/transactions/${orderId}`, liveKey);
    await waitForAsync(async () => (await read()).body.status === 'FAILED', { what: `${orderId} FAILED` });
    const view = await read();
    expectNeutral(view.text);
    expectNeutral((await service.partner('GET', '/transactions', liveKey)).text);
    const admin = await service.admin('GET', `/orders/${orderId}`);
    expect(admin.body.failure_reason).toMatch(/reloadly/i);
  });

  it('a product routed to a provider that is not configured answers 503 naming no provider', async () => {
    await setRoute(service, { kind: 'operator', id: 102, provider: 'dtone', upstream_id: 'IN-JIO' });
    const refused = await service.topup(
      liveKey,
      { operator_id: 102, phone: '+919876540001', amount: 100 },
      'neutral-2',
    );
    expectRefusal(refused, 503, 'provider_unavailable');
    expect(refused.body.detail).toBe('operator 102 cannot be served at the moment; no money was moved; retry later');
    expectNeutral(refused.text);
  });
});

describe('partner answers name no provider (Setu simulator over HTTP)', () => {
  let upstream: SetuUpstream;
  let service: TestService;
  let liveKey = '';

  beforeAll(async () => {
    upstream = await startSetuUpstream();
    service = await TestService.start({ store: 'postgres', env: { ...upstream.env, PROVIDER_TIMEOUT_MS: '1000' } });
    await routeBillsToSetu(service);
    ({ liveKey } = await liveWalletPartner(service));
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
    await upstream?.close();
  });

  it('a bill fetch the provider does not answer is 503 with a neutral detail', async () => {
    const refused = await billInfo(service, liveKey, bescom('0006'));
    expectRefusal(refused, 503, 'provider_unavailable');
    expect(refused.body.detail).toBe(
      'Bangalore Electricity Supply Company (BESCOM) could not be asked for the bill at the moment; retry later',
    );
    expectNeutral(refused.text);
  });

  it('the agent tool answers the same neutral detail in its error result', async () => {
    const mcp = new Client({ name: 'neutral-detail', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${service.url}/v1/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${liveKey}` } },
      }),
    );
    try {
      const result = await mcp.callTool({
        name: 'service_get_bill_info',
        arguments: { biller_id: 1005, consumer_number: bescom('0006') },
      });
      expect(result.isError).toBe(true);
      const text = JSON.stringify(result.content);
      expect(text).toContain('provider_unavailable');
      expectNeutral(text);
    } finally {
      await mcp.close();
    }
  });

  it('a bill with nothing due names no provider text', async () => {
    const refused = await billInfo(service, liveKey, bescom('0004'));
    expectRefusal(refused, 422, 'amount_out_of_range');
    expectNeutral(refused.text);
  });

  it('a payment the provider fails reads FAILED with no provider words; the admin view keeps the reason', async () => {
    // 0012: the payment request is refused at once (insufficient funds at the provider).
    const consumer = bescom('0012');
    const info = await billInfo(service, liveKey, consumer);
    expect(info.status).toBe(200);
    const paid = await payBill(service, liveKey, consumer, Number(info.body.amount), 'neutral-setu-1');
    expect(paid.status).toBe(200);
    const orderId = paid.body.order_id as string;
    await service.settle();
    const read = () => service.partner('GET', `/transactions/${orderId}`, liveKey);
    await waitForAsync(async () => (await read()).body.status === 'FAILED', { what: `${orderId} FAILED` });
    const view = await read();
    expectNeutral(view.text);
    const admin = await service.admin('GET', `/orders/${orderId}`);
    expect(admin.body.failure_reason).toMatch(/setu/i);
  });
});
