import { SANDBOX_PHONES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

jest.setTimeout(SERVICE_START_TIMEOUT_MS);

/*
 * The embedded server dies (SIGKILL of its postmaster) while the service runs: the service answers
 * 503 without writing anything half, restarts the server (crash recovery from the write-ahead log)
 * and serves again without a restart of its own. The first restart waits 2 s here, so that the
 * requests of the outage are sure to meet a server that is down.
 */
describe('the embedded PostgreSQL server dying under a running service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await TestService.start({ store: 'embedded', embeddedRestartDelaysMs: [2_000, 250] });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('is noticed (health and writes answer 503 service_unavailable), restarted, and a retry with the same key debits once', async () => {
    const server = service.embeddedServer!;
    const { partnerId, sandboxKey } = await service.createPartner('BD', 'Outage Partner');
    const topup = { operator_id: 201, phone: SANDBOX_PHONES.BD('0001'), amount: 100 };
    expect((await service.topup(sandboxKey, topup, 'outage-before-0001')).status).toBe(200);

    process.kill(server.pid!, 'SIGKILL');
    await server.waitUntil(false);

    const health = await service.request('GET', '/health');
    expect({ status: health.status, error: health.body?.error }).toEqual({ status: 503, error: 'service_unavailable' });
    const during = await service.topup(sandboxKey, topup, 'outage-during-0002');
    expect(during.status).toBe(503);
    expect(during.body).toEqual({ error: 'service_unavailable', detail: expect.any(String) });
    expect(during.headers.get('retry-after')).toBe('1');

    await server.waitUntil(true);
    expect((await service.request('GET', '/health')).status).toBe(200);
    const retried = await service.topup(sandboxKey, topup, 'outage-during-0002');
    expect(retried.status).toBe(200);
    expect(retried.body.balance_after).toBe('800.00');
    await service.settle();
    expect((await service.partner('GET', '/balance', sandboxKey)).body.available).toBe('800.00');
    const audit = await service.admin('GET', `/audit/wallets/${partnerId}/sandbox?format=jsonl`);
    expect(audit.status).toBe(200);
    const lines = audit.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event_type: string });
    expect(lines.filter((line) => line.event_type === 'WalletDebited')).toHaveLength(2);
    expect((await service.verify()).body).toMatchObject({ ok: true });
  });
});
