import { TestService } from '../../support/test-service';

/** Rules added after the first cut: replays before re-validation, biller formats, the 0005 bill, agent-tool admission. */
describe('replays, biller formats and agent-tool admission', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres', env: { BILL_VALIDITY_SECONDS: '60' } });
  });
  afterAll(async () => {
    await service.close();
  });

  const fetchBill = (key: string, consumer: string, billerId = 1005) =>
    service.partner('POST', '/bill-info', key, { biller_id: billerId, consumer_number: consumer });
  const payBill = (key: string, consumer: string, amount: number, idempotencyKey: string) =>
    service.partner(
      'POST',
      '/pay-bill',
      key,
      { biller_id: 1005, consumer_number: consumer, amount },
      { 'idempotency-key': idempotencyKey },
    );

  it('a retried bill payment gets its first answer even after the fetched bill has expired', async () => {
    const { sandboxKey } = await service.createPartner('IN');
    expect((await fetchBill(sandboxKey, '1234560001')).status).toBe(200);
    const first = await payBill(sandboxKey, '1234560001', 500, 'bill-replay-0001');
    expect(first.status).toBe(200);
    await service.advance(120_000);
    const fresh = await payBill(sandboxKey, '1234560001', 500, 'bill-replay-0002');
    expect(fresh.status).toBe(400);
    const replay = await payBill(sandboxKey, '1234560001', 500, 'bill-replay-0001');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replay')).toBe('true');
    expect(replay.text).toBe(first.text);
    expect((await service.partner('GET', '/balance', sandboxKey)).body.available).toBe('500.00');
  });

  it('a consumer number in the wrong format for the biller is refused before anything is fetched', async () => {
    const { sandboxKey } = await service.createPartner('IN');
    const answer = await fetchBill(sandboxKey, '1234', 1001);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'validation_failed', detail: expect.stringMatching(/^consumer_number: /) });
  });

  it('GET /billers shows each biller’s consumer number format', async () => {
    const { sandboxKey } = await service.createPartner('IN');
    const billers = (await service.partner('GET', '/billers', sandboxKey)).body.billers as Record<string, unknown>[];
    expect(billers.find((biller) => biller.id === 1001)?.consumer_number).toEqual({
      label: 'Mobile Number',
      pattern: '^[6-9][0-9]{9}$',
    });
  });

  it('the sandbox bill ending 0005 can be paid and then never settles', async () => {
    const { sandboxKey } = await service.createPartner('IN');
    const bill = await fetchBill(sandboxKey, '1234560005');
    expect(bill.body.amount).toBe('750.00');
    const placed = await payBill(sandboxKey, '1234560005', 750, 'bill-stuck-0005');
    expect(placed.status).toBe(200);
    await service.advance(10 * 60_000);
    const status = await service.partner('GET', `/transactions/${placed.body.order_id}`, sandboxKey);
    expect(status.body).toMatchObject({ status: 'PENDING', refunded_at: null, settled_at: null });
  });

  describe('the agent-tool endpoint is admitted like REST', () => {
    const listTools = (key: string) =>
      service.request('POST', '/v1/mcp', {
        token: key,
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        headers: { accept: 'application/json, text/event-stream' },
      });

    it('refuses callers outside the key’s IP allowlist with 403 ip_not_allowed', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN');
      await service.admin('PATCH', `/partners/${partnerId}/settings`, {
        environment: 'sandbox',
        ip_allowlist: ['203.0.113.7'],
      });
      const answer = await listTools(sandboxKey);
      expect(answer.status).toBe(403);
      expect(answer.body.error).toBe('ip_not_allowed');
    });

    it('counts tool calls against the key’s rate limit and answers 429 with Retry-After', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN');
      await service.admin('PATCH', `/partners/${partnerId}/settings`, { environment: 'sandbox', rate_limit: 2 });
      expect((await listTools(sandboxKey)).status).toBe(200);
      expect((await listTools(sandboxKey)).status).toBe(200);
      const refused = await listTools(sandboxKey);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe('rate_limit_exceeded');
      expect(refused.headers.get('retry-after')).toEqual(expect.stringMatching(/^\d+$/));
    });
  });
});
