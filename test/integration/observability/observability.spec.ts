import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { observeRequests } from '../../../src/infrastructure/metrics/http-request-observer';
import { sqlOf } from '../../support/ledger';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';

/** The value of one sample in Prometheus text, or undefined when the series is absent. */
function sample(metrics: string, series: string): number | undefined {
  const line = metrics.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('health probes, request ids and metrics', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
  });
  afterAll(() => service.close());

  it('answers /health/live without looking at any dependency, and /health as before', async () => {
    const live = await service.request('GET', '/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ status: 'ok', error: {} });
    const health = await service.request('GET', '/health');
    expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('reports ready with every check up, and not ready while the read models are far behind the log', async () => {
    const ready = await service.request('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ok',
      info: {
        shutdown: { status: 'up' },
        event_store: { status: 'up' },
        database: { status: 'up' },
        read_models: { status: 'up' },
      },
      error: {},
      details: {
        shutdown: { status: 'up' },
        event_store: { status: 'up' },
        database: { status: 'up' },
        read_models: { status: 'up' },
      },
    });

    // An event written an hour ago by another process that no projector here has applied yet (a look-up of an
    // order, which no read model shows: of a type the log's decoder knows, as every event the service writes).
    await sqlOf(service).query(
      `INSERT INTO es_events (event_id, stream_id, stream_revision, event_type, schema_version, data, metadata, recorded_at)
       VALUES (gen_random_uuid(), 'order-ord_probe', 0, 'TransactionLookedUp', 1,
               '{"orderId": "ord_probe", "result": "probe", "at": "2026-01-01T00:00:00.000Z"}', $1::jsonb,
               now() - interval '1 hour')`,
      [
        JSON.stringify({
          partnerId: null,
          environment: null,
          correlationId: 'probe',
          causationId: null,
          actor: { kind: 'system' },
          occurredAt: new Date().toISOString(),
        }),
      ],
    );
    const behind = await service.request('GET', '/health/ready');
    expect(behind.status).toBe(503);
    expect(behind.body.status).toBe('error');
    expect(Object.keys(behind.body.error)).toEqual(['read_models']);
    expect(behind.body.error.read_models.message).toMatch(/behind the event log/);

    await service.settle();
    expect((await service.request('GET', '/health/ready')).status).toBe(200);
  });

  it('returns a request id on every answer and takes none from a caller that is not a trusted proxy', async () => {
    const plain = await service.request('GET', '/health/live');
    expect(plain.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const chosen = await service.request('GET', '/health/live', { headers: { 'x-request-id': 'edge-request-0001' } });
    expect(chosen.headers.get('x-request-id')).not.toBe('edge-request-0001');
    const refused = await service.request('GET', '/v1/partner/balance');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('counts requests by route template and status, order outcomes and their time from the debit, next to the existing gauges', async () => {
    const { sandboxKey } = await service.createPartner('IN');
    const statementsBefore =
      sample(
        (await service.request('GET', '/metrics', { token: TEST_ADMIN_TOKEN })).text,
        'partner_service_sql_statements_total',
      ) ?? Number.NaN;
    const topup = await service.topup(
      sandboxKey,
      // 0003: submitted, PENDING, then SUCCESS 30 s after the debit (0001 is answered in the debit's commit).
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0003'), amount: 10 },
      'metrics-1',
    );
    expect(topup.status).toBe(200);
    await service.advance(31_000);
    const status = await service.partner('GET', `/transactions/${topup.body.order_id}`, sandboxKey);
    expect(status.body.status).toBe('SUCCESS');

    const scrape = await service.request('GET', '/metrics', { token: TEST_ADMIN_TOKEN });
    expect(scrape.status).toBe(200);
    const text = scrape.text;
    expect(
      sample(text, 'partner_service_http_requests_total{method="POST",route="/v1/partner/topup",status="200"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(
        text,
        'partner_service_http_request_duration_seconds_count{method="POST",route="/v1/partner/topup",status="200"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(
        text,
        'partner_service_http_requests_total{method="GET",route="/v1/partner/transactions/:order_id",status="200"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'partner_service_order_outcomes_total{kind="topup",outcome="success"}')).toBeGreaterThanOrEqual(
      1,
    );
    // The sandbox settles 30 s after the debit, on the manual clock.
    expect(
      sample(text, 'partner_service_order_debit_to_outcome_seconds_bucket{le="15",kind="topup",outcome="success"}'),
    ).toBe(0);
    expect(
      sample(text, 'partner_service_order_debit_to_outcome_seconds_bucket{le="60",kind="topup",outcome="success"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(
        text,
        'partner_service_provider_call_duration_seconds_count{provider="sandbox",operation="submit",outcome="answered"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'partner_service_projection_lag_seconds{projector="read-models"}')).toBe(0);
    expect(sample(text, 'partner_service_job_backlog{state="due"}')).toBe(0);
    // The debit, its settlement and their read models took statements of their own.
    expect(sample(text, 'partner_service_sql_statements_total')).toBeGreaterThan(statementsBefore + 3);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    // Declared from the start; its samples appear with the first garbage collection.
    expect(text).toMatch(/^# TYPE nodejs_gc_duration_seconds histogram$/m);
    // The gauges that were there before stay, under their names.
    expect(sample(text, 'partner_service_held_orders')).toBe(0);
    expect(sample(text, `partner_service_process_id`)).toBe(process.pid);
    // One HELP line per metric: no metric is described twice.
    const helps = text.split('\n').filter((line) => line.startsWith('# HELP '));
    expect(new Set(helps).size).toBe(helps.length);
  });
});

describe('a service behind a trusted proxy', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres', env: { TRUSTED_PROXIES: 'loopback' } });
  });
  afterAll(() => service.close());

  it("keeps the proxy's X-Request-Id, and makes one when the proxy sent none or an unusable one", async () => {
    const kept = await service.request('GET', '/health/live', { headers: { 'x-request-id': 'edge-request-0001' } });
    expect(kept.headers.get('x-request-id')).toBe('edge-request-0001');
    const unusable = await service.request('GET', '/health/live', {
      headers: { 'x-request-id': 'bad id\twith spaces' },
    });
    expect(unusable.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the access log', () => {
  it('writes one JSON line per request with id, route, status, latency and partner, and never a key', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(
          ...chunk
            .toString('utf8')
            .split('\n')
            .filter((line) => line.length > 0),
        );
        done();
      },
    });
    const app = Fastify({ genReqId: () => 'req-00000001' });
    observeRequests(app, 'info', destination);
    app.addHook('preHandler', async (request) => {
      Object.assign(request, { caller: { partnerId: 'ptr_abc' } });
    });
    app.get('/v1/partner/transactions/:order_id', async () => ({ ok: true }));
    await app.ready();
    const answer = await app.inject({
      method: 'GET',
      url: '/v1/partner/transactions/ord_1?limit=5',
      headers: { authorization: 'Bearer svc_test_secretsecretsecret' },
    });
    await app.close();

    expect(answer.headers['x-request-id']).toBe('req-00000001');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]);
    expect(entry).toMatchObject({
      msg: 'request',
      request_id: 'req-00000001',
      method: 'GET',
      route: '/v1/partner/transactions/:order_id',
      status: 200,
      partner_id: 'ptr_abc',
    });
    expect(typeof entry.latency_ms).toBe('number');
    expect(lines[0]).not.toContain('svc_test_');
    expect(lines[0]).not.toContain('ord_1');
  });
});
