import { Client } from 'pg';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { OtlpReceiver, ReceivedSpan } from '../../support/otlp-receiver';
import { RecordingReceiver } from '../../support/recording-receiver';
import { ServiceProcess } from '../../support/service-process';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TEST_KEY_SECRET } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

/*
 * One topup followed through the service's traces, exported with the standard OTEL_* variables
 * (OTLP over HTTP, JSON) to a collector this test runs on 127.0.0.1: the partner's request, the
 * debit's append (with the outcome of a sandbox 0001 order, answered in the debit's commit), the
 * projection run, and the webhook delivery (its job linked to the request), whose `traceparent`
 * reaches the partner's endpoint; for an order that is submitted (0005), the submit job linked to
 * its request and the provider call in it. A `traceparent` sent by a caller that is not a trusted
 * proxy is not continued.
 */

const WAIT_MS = 30_000;
const SERVER = 2;
const CLIENT = 3;
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

async function waitFor<T>(what: string, found: () => T | undefined, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
    const value = found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

describe('tracing: one topup from the partner request to the provider call and the webhook (OTLP/HTTP JSON)', () => {
  let database: TestDatabase;
  let collector: OtlpReceiver;
  let partnerEndpoint: RecordingReceiver;
  let service: ServiceProcess;

  beforeAll(async () => {
    database = await createTestDatabase('tracing_otlp');
    collector = await OtlpReceiver.start();
    partnerEndpoint = await RecordingReceiver.start();
    service = await ServiceProcess.start('traced', {
      EVENT_STORE: 'postgres',
      DATABASE_URL: database.connectionString,
      API_KEY_SECRET: TEST_KEY_SECRET,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      LOG_LEVEL: 'info',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'partner-service-under-test',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  }, SERVICE_START_TIMEOUT_MS);

  afterAll(async () => {
    try {
      await service?.stop();
    } finally {
      await partnerEndpoint?.stop();
      await collector?.stop();
      await database?.drop();
    }
  }, 40_000);

  const call = async (
    method: string,
    path: string,
    token: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  /** Waits for the job that makes sure of a new partner's sandbox grant (a reaction to its onboarding) to be done. */
  const grantJobDone = async (partnerId: string): Promise<void> => {
    const db = new Client({ connectionString: database.connectionString });
    await db.connect();
    try {
      const done = async () =>
        (
          await db.query<{ done: boolean }>(
            `SELECT EXISTS (SELECT 1 FROM jobs WHERE kind = 'grant-sandbox-credit' AND payload->>'partnerId' = $1
                              AND done_at IS NOT NULL) AS done`,
            [partnerId],
          )
        ).rows[0].done;
      const deadline = Date.now() + WAIT_MS;
      while (!(await done())) {
        if (Date.now() > deadline) throw new Error(`the sandbox grant job: not done within ${WAIT_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await db.end();
    }
  };

  it('exports the whole trace of a topup, linked across the jobs, with no secret in any attribute', async () => {
    const created = await call('POST', '/v1/admin/partners', TEST_ADMIN_TOKEN, {
      name: 'Traced Partner',
      corridor: 'IN',
    });
    expect(created.status).toBe(201);
    const partnerId: string = created.body.partner_id;
    const apiKey: string = created.body.sandbox_api_key;
    const configured = await call('PATCH', `/v1/admin/partners/${partnerId}/settings`, TEST_ADMIN_TOKEN, {
      environment: 'sandbox',
      webhook_url: partnerEndpoint.url,
    });
    expect(configured.status).toBe(200);
    const webhookSecret: string = configured.body.webhook_secret;

    // Onboarding grants the sandbox credit itself and schedules a job that makes sure of it. That job's grant
    // is a repeat, but while it runs the wallet's commands queue behind it and are appended in its trace, so
    // the topup waits until it is done (the first topup is otherwise appended within the request's trace).
    await grantJobDone(partnerId);

    const placed = await call(
      'POST',
      '/v1/partner/topup',
      apiKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 },
      { 'idempotency-key': 'traced-topup-1', traceparent: `00-${CALLER_TRACE}-00f067aa0ba902b7-01` },
    );
    expect(placed.status).toBe(200);
    const orderId: string = placed.body.order_id;

    // The partner's endpoint gets the webhook with a traceparent (the delivery's HTTP span).
    await partnerEndpoint.receivedCount(1);
    const webhook = partnerEndpoint.received[0];
    const sentTraceparent = String(webhook.headers.traceparent ?? '');
    expect(sentTraceparent).toMatch(/^00-[\da-f]{32}-[\da-f]{16}-01$/);
    const [, webhookTrace, webhookParent] = sentTraceparent.split('-');

    const spans = collector.spans;
    const span = (what: string, match: (candidate: ReceivedSpan) => boolean) => waitFor(what, () => spans.find(match));

    // The request: a new root trace (127.0.0.1 is no trusted proxy here, so the caller's traceparent is dropped).
    const request = await span(
      'the topup request span',
      (s) =>
        s.kind === SERVER &&
        String(s.attributes['http.target'] ?? s.attributes['url.path']).startsWith('/v1/partner/topup'),
    );
    expect(request.service).toBe('partner-service-under-test');
    expect(request.parentSpanId).toBe('');
    expect(request.traceId).not.toBe(CALLER_TRACE);
    const trace = request.traceId;
    expect(spans.some((s) => s.traceId === CALLER_TRACE)).toBe(false);

    const append = await span(
      'the debit append',
      (s) =>
        s.traceId === trace &&
        s.name === 'event append' &&
        String(s.attributes['event.types']).includes('WalletDebited'),
    );
    expect(append.kind).toBe(CLIENT);
    // A sandbox 0001 order is answered in its debit's commit: its outcome is in the request's own append.
    expect(String(append.attributes['event.types'])).toContain('TransactionSettled');
    const linkedTo = (s: ReceivedSpan, traceId: string) => s.links.some((link) => link.traceId === traceId);
    await span('a projection run linked to the request', (s) => s.name.startsWith('projection ') && linkedTo(s, trace));

    // The delivery: its job links to the placing request (and to the work that settled the order).
    const deliveryJob = await span(
      'the webhook job',
      (s) => s.name === 'job deliver-webhook' && s.attributes['order.id'] === orderId,
    );
    expect(deliveryJob.traceId).toBe(webhookTrace);
    expect(linkedTo(deliveryJob, trace)).toBe(true);
    const deliver = await span(
      'the webhook delivery',
      (s) => s.name === 'webhook deliver' && s.traceId === webhookTrace,
    );
    expect(deliver.parentSpanId).toBe(deliveryJob.spanId);
    expect(deliver.attributes['webhook.event']).toBe('transaction.succeeded');
    const post = await span('the webhook POST', (s) => s.spanId === webhookParent);
    expect(post).toMatchObject({ traceId: webhookTrace, parentSpanId: deliver.spanId, kind: CLIENT });

    // The trace id is on the order's timeline and in the access log line of the request.
    const audit = await call('GET', `/v1/admin/audit/orders/${orderId}`, TEST_ADMIN_TOKEN);
    expect(audit.status).toBe(200);
    const debit = audit.body.events.find((event: any) => event.event_type === 'WalletDebited');
    expect(debit.trace_id).toBe(trace);
    const settled = audit.body.events.find((event: any) => event.event_type === 'TransactionSettled');
    expect(settled.trace_id).toBe(trace);
    const accessLine = await waitFor('the access log line with the trace id', () =>
      service.output.split('\n').find((line) => line.includes('"route":"/v1/partner/topup"') && line.includes(trace)),
    );
    expect(JSON.parse(accessLine)).toMatchObject({ trace_id: trace, status: 200 });

    // An order the provider must be asked about (0005 stays pending): its submit job links to its request, and
    // the provider call is the job's child.
    const submitted = await call(
      'POST',
      '/v1/partner/topup',
      apiKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0005'), amount: 100 },
      { 'idempotency-key': 'traced-topup-2' },
    );
    expect(submitted.status).toBe(200);
    const submittedId: string = submitted.body.order_id;
    const submittedRequest = await span(
      'the second topup request span',
      (s) =>
        s.kind === SERVER &&
        s.traceId !== trace &&
        String(s.attributes['http.target'] ?? s.attributes['url.path']).startsWith('/v1/partner/topup'),
    );
    const submitJob = await span(
      'the submit job',
      (s) => s.name === 'job submit-order' && s.attributes['order.id'] === submittedId,
    );
    expect(submitJob.traceId).not.toBe(submittedRequest.traceId);
    expect(linkedTo(submitJob, submittedRequest.traceId)).toBe(true);
    const providerCall = await span(
      'the provider call',
      (s) => s.name === 'provider submit' && s.attributes['order.id'] === submittedId,
    );
    expect(providerCall).toMatchObject({ traceId: submitJob.traceId, parentSpanId: submitJob.spanId, kind: CLIENT });
    expect(providerCall.attributes['provider.name']).toBe('sandbox');
    await span(
      'the submission append in the submit job',
      (s) =>
        s.traceId === submitJob.traceId &&
        s.name === 'event append' &&
        String(s.attributes['event.types']).includes('TransactionSubmitted'),
    );

    // No key, webhook secret or Authorization header in anything exported.
    const exported = Buffer.concat(collector.exports.map((exportRequest) => exportRequest.body)).toString('utf8');
    expect(exported).not.toContain(apiKey);
    expect(exported).not.toContain(webhookSecret);
    expect(exported).not.toContain(TEST_ADMIN_TOKEN);
    expect(exported.toLowerCase()).not.toContain('authorization');
    expect(exported).not.toContain('Bearer');
  }, 90_000);

  it("keeps each request's own trace on the order events written in its debit's commit, however many share the commit", async () => {
    const created = await call('POST', '/v1/admin/partners', TEST_ADMIN_TOKEN, { name: 'Many Traces', corridor: 'IN' });
    expect(created.status).toBe(201);
    const apiKey: string = created.body.sandbox_api_key;
    // Concurrent instant-outcome topups of one wallet: their debits are appended in shared commits.
    const placed = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        call(
          'POST',
          '/v1/partner/topup',
          apiKey,
          { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 10 },
          { 'idempotency-key': `traced-many-${index}` },
        ),
      ),
    );
    expect(placed.map((answer) => answer.status)).toEqual(placed.map(() => 200));
    const orderIds = placed.map((answer) => answer.body.order_id as string);

    const db = new Client({ connectionString: database.connectionString });
    await db.connect();
    try {
      const { rows } = await db.query<{ correlation_id: string; event_type: string; trace: string | null }>(
        `SELECT metadata->>'correlationId' AS correlation_id, event_type, split_part(metadata->>'traceparent', '-', 2) AS trace
           FROM es_events WHERE metadata->>'correlationId' = ANY($1::text[])
            AND event_type IN ('WalletDebited', 'TransactionInitiated', 'TransactionSettled')`,
        [orderIds],
      );
      for (const orderId of orderIds) {
        const traces = Object.fromEntries(
          rows.filter((row) => row.correlation_id === orderId).map((row) => [row.event_type, row.trace]),
        );
        expect(traces.WalletDebited).toMatch(/^[\da-f]{32}$/);
        expect({ orderId, ...traces }).toEqual({
          orderId,
          WalletDebited: traces.WalletDebited,
          TransactionInitiated: traces.WalletDebited,
          TransactionSettled: traces.WalletDebited,
        });
      }
      // Sixteen requests, sixteen traces.
      expect(new Set(rows.map((row) => row.trace)).size).toBe(orderIds.length);
    } finally {
      await db.end();
    }
  }, 60_000);
});
