import { createHmac } from 'node:crypto';
import { Client } from 'pg';
import { expectRefusal } from '../../support/error-assertions';
import { orderEvents, sqlOf } from '../../support/ledger';
import { runCli } from '../../support/run-cli';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TEST_KEY_SECRET, TestService } from '../../support/test-service';
import { startTwoServices, stopTwoServices, TwoServices } from '../../support/two-services';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { ServiceProcess } from '../../support/service-process';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';
import { waitFor, waitForAsync } from '../../support/wait-for';
import { RecordingReceiver } from '../../support/recording-receiver';
import { PROJECTION_ADMIN } from '../../../src/application/ports/projections.port';
import { SqlProjectionAdmin } from '../../../src/infrastructure/projections/sql-projection-admin';

const DAY_MS = 86_400_000;
const STUCK_AFTER_MS = 60_000;

/** Exactly one JSON line on stdout, exit 0, nothing on stderr. */
function printedJson(run: { code: number | null; stdout: string; stderr: string }): Record<string, any> {
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(run.stdout) as Record<string, any>;
}

describe('back-office operators: their own tokens, roles and audit', () => {
  let service: TestService;
  let cliEnv: Record<string, string>;

  beforeAll(async () => {
    service = await TestService.start({
      store: 'postgres',
      // The webhook receiver of the re-send test listens on 127.0.0.1: a private deployment's opt-in.
      env: { STUCK_ORDER_AFTER_SECONDS: String(STUCK_AFTER_MS / 1000), WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
    });
    cliEnv = { SERVICE_URL: service.url, DATA_DIR: '/nonexistent-data-dir' };
  });
  afterAll(async () => {
    await service.close();
  });

  const cli = (args: string[], token: { operator?: string; admin?: string }) =>
    runCli(args, {
      ...cliEnv,
      ...(token.operator ? { OPERATOR_TOKEN: token.operator } : {}),
      ...(token.admin ? { ADMIN_TOKEN: token.admin } : {}),
    });

  it('the break-glass owner creates an operator with the CLI: the token is shown once, and only its HMAC is stored', async () => {
    const created = printedJson(
      await cli(['operator', 'create', '--name', 'ops.asha', '--role', 'operator'], { admin: TEST_ADMIN_TOKEN }),
    );
    expect(created).toEqual({
      operator_id: expect.stringMatching(/^opr_[0-9a-f]{24}$/),
      name: 'ops.asha',
      role: 'operator',
      token: expect.stringMatching(/^op_[A-Za-z0-9_-]{43}$/),
      created_at: service.clock.now().toISOString(),
      expires_at: new Date(service.clock.now().getTime() + 90 * DAY_MS).toISOString(),
    });
    const token = created.token as string;

    // The row: the keyed hash under API_KEY_SECRET, never the token; and the token nowhere in the database.
    const rows = await sqlOf(service).query<{ data: Record<string, unknown>; metadata: Record<string, any> }>(
      `SELECT data, metadata FROM es_events WHERE event_type = 'OperatorCreated' AND data->>'operatorId' = $1`,
      [created.operator_id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].data.tokenHash).toBe(createHmac('sha256', TEST_KEY_SECRET).update(token).digest('hex'));
    expect(rows[0].metadata.actor).toEqual({ type: 'operator', id: 'break-glass' });
    const secretPart = token.slice(3);
    const tables = await sqlOf(service).query<{ name: string }>(
      `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
    );
    expect(tables.map((table) => table.name)).toContain('public.rm_operator_actions');
    for (const { name } of tables) {
      const found = await sqlOf(service).query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${name} AS t WHERE strpos(t::text, $1) > 0`,
        [secretPart],
      );
      expect({ table: name, rows: found[0].n }).toEqual({ table: name, rows: 0 });
    }

    // The list and the audit show neither the token nor its hash.
    const listed = printedJson(await cli(['operator', 'list'], { admin: TEST_ADMIN_TOKEN }));
    expect(listed.operators).toContainEqual({
      operator_id: created.operator_id,
      name: 'ops.asha',
      role: 'operator',
      status: 'active',
      created_at: created.created_at,
      created_by: 'break-glass',
      expires_at: created.expires_at,
      revoked_at: null,
      revoked_by: null,
      revoke_reason: null,
      last_used_at: null,
    });
    expect(JSON.stringify(listed)).not.toContain(secretPart);
    expect(JSON.stringify(listed)).not.toContain(rows[0].data.tokenHash as string);
    await service.settle();
    const audit = printedJson(await cli(['audit', 'operator', 'break-glass'], { admin: TEST_ADMIN_TOKEN }));
    const creation = audit.actions.find((action: any) => action.event_type === 'OperatorCreated');
    expect(creation.data).toMatchObject({ name: 'ops.asha', role: 'operator', tokenHash: '[redacted]' });

    // The operator's own token works with the CLI (OPERATOR_TOKEN), and says who it is.
    expect(printedJson(await cli(['operator', 'whoami'], { operator: token, admin: 'not-the-break-glass' }))).toEqual({
      name: 'ops.asha',
      role: 'operator',
      operator_id: created.operator_id,
      expires_at: created.expires_at,
      break_glass: false,
      permissions: ['read', 'manage_partners', 'move_money', 'resend_webhooks'],
    });

    // Revoked with the CLI, the token is refused from the answer on.
    const revoked = printedJson(
      await cli(['operator', 'revoke', created.operator_id, '--reason', 'handed over'], { admin: TEST_ADMIN_TOKEN }),
    );
    expect(revoked.revoked).toEqual([
      { operator_id: created.operator_id, name: 'ops.asha', revoked_at: service.clock.now().toISOString() },
    ]);
    const refused = await cli(['operator', 'whoami'], { operator: token });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr)).toEqual({
      error: 'invalid_admin_token',
      detail: 'the operator token has been revoked',
    });
  });

  it('refuses names that are malformed, reserved or held by a person of another role, and tokens longer than 365 days', async () => {
    expectRefusal(
      await service.admin('POST', '/operators', { name: 'Ops Asha', role: 'finance' }),
      400,
      'validation_failed',
      'name',
    );
    expectRefusal(
      await service.admin('POST', '/operators', { name: 'break-glass', role: 'owner' }),
      400,
      'validation_failed',
      'name',
    );
    expectRefusal(
      await service.admin('POST', '/operators', { name: 'opr_123', role: 'owner' }),
      400,
      'validation_failed',
      'name',
    );
    expectRefusal(
      await service.admin('POST', '/operators', { name: 'ops.x', role: 'admin' }),
      400,
      'validation_failed',
      'role',
    );
    expectRefusal(
      await service.admin('POST', '/operators', { name: 'ops.x', role: 'finance', expires_in_days: 366 }),
      400,
      'validation_failed',
      'expires_in_days',
    );
    await service.createOperator('fin.ravi', 'finance');
    expectRefusal(await service.admin('POST', '/operators', { name: 'fin.ravi', role: 'owner' }), 409, 'invalid_state');
    // A second token of the same person and role: rotation.
    const second = await service.createOperator('fin.ravi', 'finance', 30);
    expect((await service.adminAs(second.token, 'GET', '/operators/me')).body).toMatchObject({
      name: 'fin.ravi',
      role: 'finance',
    });
  });

  it('refuses unknown and malformed tokens with 401, and a role outside its powers with 403 role_forbidden, moving no money', async () => {
    for (const token of ['op_' + 'A'.repeat(43), 'op_short', 'svc_test_' + 'a'.repeat(32), TEST_ADMIN_TOKEN + 'x']) {
      expectRefusal(await service.adminAs(token, 'GET', '/partners'), 401, 'invalid_admin_token');
    }
    expectRefusal(await service.request('GET', '/v1/admin/partners'), 401, 'invalid_admin_token');

    const { partnerId } = await service.createPartner('IN', 'Role Partner');
    await service.settle();
    const finance = await service.operatorToken('fin.meera', 'finance');
    const refused = await service.adminAs(finance, 'POST', `/partners/${partnerId}/wallet-credits`, {
      environment: 'sandbox',
      amount: '500.00',
      reference: 'not finance to credit',
    });
    expectRefusal(refused, 403, 'role_forbidden');
    expect(refused.body.detail).toBe(
      'fin.meera has the role finance, which may not credit wallets or resolve held orders',
    );
    expect((await service.admin('GET', `/partners/${partnerId}`)).body.balances.sandbox.available).toBe('1000.00');
    // Reads and exports are finance's.
    expect((await service.adminAs(finance, 'GET', `/partners/${partnerId}`)).status).toBe(200);
    expect((await service.adminAs(finance, 'GET', `/audit/wallets/${partnerId}/sandbox?format=csv`)).status).toBe(200);
    expect((await service.request('GET', '/metrics', { token: finance })).status).toBe(200);

    const engineer = await service.operatorToken('eng.kiran', 'engineer');
    expectRefusal(
      await service.adminAs(engineer, 'POST', `/partners/${partnerId}/kyc`, { status: 'suspended' }),
      403,
      'role_forbidden',
    );
    const operator = await service.operatorToken('ops.lena', 'operator');
    expectRefusal(
      await service.adminAs(operator, 'POST', '/operators', { name: 'ops.new', role: 'owner' }),
      403,
      'role_forbidden',
    );
    expectRefusal(await service.adminAs(operator, 'GET', '/operators'), 403, 'role_forbidden');
    expectRefusal(await service.adminAs(operator, 'POST', '/projections/balances/rebuild'), 403, 'role_forbidden');
  });

  it("records the token's operator as the actor of a credit, a KYC change and a resolution, whatever X-Operator-Id says, and lists them in audit operator", async () => {
    const asha = await service.operatorToken('ops.priya', 'operator');
    const claimed = { 'x-operator-id': 'ops.someone-else' };
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Actor Partner');
    await service.settle();

    const credit = await service.adminAs(
      asha,
      'POST',
      `/partners/${partnerId}/wallet-credits`,
      { environment: 'sandbox', amount: '250.00', reference: 'wire 42' },
      claimed,
    );
    expect(credit.status).toBe(200);
    const kyc = await service.adminAs(asha, 'POST', `/partners/${partnerId}/kyc`, { status: 'approved' }, claimed);
    expect(kyc.status).toBe(200);

    const placed = await service.topup(
      sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0005'), amount: 100 },
      'actor-held-order-1',
    );
    expect(placed.status).toBe(200);
    const orderId = placed.body.order_id as string;
    await service.settle();
    await service.advance(STUCK_AFTER_MS);
    expect((await service.admin('GET', `/orders/${orderId}`)).body.status).toBe('DISPUTED');
    const resolved = await service.adminAs(
      asha,
      'POST',
      `/orders/${orderId}/resolve`,
      { outcome: 'failed', reason: 'operator confirmed no delivery' },
      claimed,
    );
    expect(resolved.status).toBe(200);
    await service.settle();

    const events = await sqlOf(service).query<{ event_type: string; metadata: Record<string, any> }>(
      `SELECT event_type, metadata FROM es_events WHERE metadata->>'partnerId' = $1 OR metadata->>'correlationId' = $2
        ORDER BY global_position`,
      [partnerId, orderId],
    );
    const actorOf = (type: string) =>
      events.filter((event) => event.event_type === type).map((event) => event.metadata.actor);
    expect(actorOf('WalletCredited')).toContainEqual({ type: 'operator', id: 'ops.priya' });
    expect(actorOf('KycStatusChanged')).toEqual([{ type: 'operator', id: 'ops.priya' }]);
    const [failure] = await orderEvents(service, orderId, 'TransactionFailed');
    expect(failure.metadata.actor).toEqual({ type: 'operator', id: 'ops.priya' });
    expect(failure.data.resolvedBy).toEqual({ type: 'operator', id: 'ops.priya' });
    const [refund] = await orderEvents(service, orderId, 'WalletRefunded');
    expect(refund.metadata.actor).toEqual({ type: 'operator', id: 'ops.priya' });
    expect(JSON.stringify(events)).not.toContain('ops.someone-else');

    // The audit of the operator, over the CLI with the finance role: these actions, newest first, and nobody else's.
    const audit = printedJson(
      await cli(['audit', 'operator', 'ops.priya'], { operator: await service.operatorToken('fin.meera', 'finance') }),
    );
    expect(audit.operator).toBe('ops.priya');
    const types = (audit.actions as { event_type: string }[]).map((action) => action.event_type);
    // An operator's approval issues no live key: the partner claims it.
    expect(types).toEqual(['WalletRefunded', 'TransactionFailed', 'KycStatusChanged', 'WalletCredited']);
    expect(audit.actions[3]).toMatchObject({
      partner_id: partnerId,
      environment: 'sandbox',
      data: { amount: '250.00', reference: 'wire 42' },
    });
    const nobody = printedJson(await cli(['audit', 'operator', 'ops.someone-else'], { admin: TEST_ADMIN_TOKEN }));
    expect(nobody).toEqual({ operator: 'ops.someone-else', actions: [], actions_outside_log: [] });
  });

  it("lists an operator's webhook re-sends and an engineer's rebuilds in audit operator, though they are not events, and each token's last use", async () => {
    const ravi = await service.createOperator('ops.ravi', 'operator');
    const lena = await service.createOperator('eng.lena', 'engineer');
    const receiver = await RecordingReceiver.start();
    try {
      const { partnerId, sandboxKey } = await service.createPartner('IN', 'Resend Partner');
      // The first URL comes with the signing secret: the partner sets it, not an operator.
      const configured = await service.partner('PATCH', '/settings', sandboxKey, { webhook_url: receiver.url });
      expect(configured.status).toBe(200);
      const limited = await service.adminAs(ravi.token, 'PATCH', `/partners/${partnerId}/settings`, {
        environment: 'sandbox',
        rate_limit: 100,
      });
      expect(limited.status).toBe(200);
      const placed = await service.topup(
        sandboxKey,
        { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 },
        'audit-resend-1',
      );
      expect(placed.status).toBe(200);
      await service.settle();
      const [delivery] = (await service.partner('GET', '/webhook-deliveries', sandboxKey)).body.deliveries;
      expect(delivery).toMatchObject({ order_id: placed.body.order_id, state: 'SUCCEEDED' });
      const resentAt = service.clock.now().toISOString();

      const resent = await service.adminAs(ravi.token, 'POST', `/webhook-deliveries/${delivery.delivery_id}/resend`);
      expect(resent.body).toEqual({ delivery_id: delivery.delivery_id, scheduled_attempt: 2 });
      // The partner's own re-send is not an operator's; a refused one is not an action.
      const own = await service.partner('POST', `/webhook-deliveries/${delivery.delivery_id}/resend`, sandboxKey);
      expect(own.status).toBe(202);
      expectRefusal(
        await service.adminAs(ravi.token, 'POST', '/webhook-deliveries/whd-nothing/resend'),
        404,
        'not_found',
      );
      await service.settle();

      service.clock.advance(60_000);
      const rebuiltAt = service.clock.now().toISOString();
      const started = await service.adminAs(lena.token, 'POST', '/projections/operator-actions/rebuild');
      expect(started.status).toBe(202);
      await service.app.get<SqlProjectionAdmin>(PROJECTION_ADMIN).whenFinished(started.body.rebuild_id);
      expect((await service.admin('GET', `/projections/rebuilds/${started.body.rebuild_id}`)).body.state).toBe(
        'completed',
      );
      expectRefusal(await service.adminAs(lena.token, 'POST', '/projections/no-such/rebuild'), 404, 'not_found');

      // Read over the CLI with the finance role, after the operators' audit read model was rebuilt from the
      // log: the re-send and the rebuild are still listed (they are kept apart from the read models).
      const finance = await service.operatorToken('fin.audit', 'finance');
      const ravisAudit = printedJson(await cli(['audit', 'operator', 'ops.ravi'], { operator: finance }));
      expect(ravisAudit.actions.map((action: { event_type: string }) => action.event_type)).toEqual([
        'PartnerSettingsChanged',
      ]);
      expect(ravisAudit.actions_outside_log).toEqual([
        {
          action_id: expect.stringMatching(/^\d+$/),
          occurred_at: resentAt,
          action: 'webhook_delivery_resent',
          subject: delivery.delivery_id,
          partner_id: partnerId,
          environment: 'sandbox',
          operator_id: ravi.operatorId,
          role: 'operator',
          detail: { event: 'transaction.succeeded', order_id: placed.body.order_id, attempt: 2 },
        },
      ]);
      const lenasAudit = printedJson(await cli(['audit', 'operator', 'eng.lena'], { operator: finance }));
      expect(lenasAudit).toEqual({
        operator: 'eng.lena',
        actions: [],
        actions_outside_log: [
          {
            action_id: expect.stringMatching(/^\d+$/),
            occurred_at: rebuiltAt,
            action: 'projection_rebuild_started',
            subject: 'operator-actions',
            partner_id: null,
            environment: null,
            operator_id: lena.operatorId,
            role: 'engineer',
            detail: { rebuild_id: started.body.rebuild_id, version_before: started.body.version_before },
          },
        ],
      });
      expect(Number(lenasAudit.actions_outside_log[0].action_id)).toBeGreaterThan(
        Number(ravisAudit.actions_outside_log[0].action_id),
      );

      // Each token's last use, as its requests were let in (written off the request path, so awaited here).
      const lastUse = async (operatorId: string) =>
        (
          (await service.admin('GET', '/operators')).body.operators as { operator_id: string; last_used_at: string }[]
        ).find((row) => row.operator_id === operatorId)?.last_used_at ?? null;
      await waitForAsync(async () => (await lastUse(lena.operatorId)) === rebuiltAt, { what: "eng.lena's last use" });
      expect(await lastUse(ravi.operatorId)).toBe(resentAt);
    } finally {
      await receiver.stop();
    }
  });

  it('a token stops working when it expires (manual clock), and says so', async () => {
    const { token, expiresAt } = await service.createOperator('ops.temp', 'operator', 1);
    expect(expiresAt).toBe(new Date(service.clock.now().getTime() + DAY_MS).toISOString());
    expect((await service.adminAs(token, 'GET', '/partners')).status).toBe(200);
    service.clock.advance(DAY_MS - 1000);
    expect((await service.adminAs(token, 'GET', '/partners')).status).toBe(200);
    service.clock.advance(1000);
    const refused = await service.adminAs(token, 'GET', '/partners');
    expectRefusal(refused, 401, 'invalid_admin_token');
    expect(refused.body.detail).toBe('the operator token has expired');
    const listed = (await service.admin('GET', '/operators')).body.operators.find(
      (row: any) => row.name === 'ops.temp',
    );
    expect(listed.status).toBe('expired');
    // The break-glass token does not expire.
    expect((await service.admin('GET', '/partners')).status).toBe(200);
  });
});

describe('revoking an operator token', () => {
  let services: TwoServices;

  beforeAll(async () => {
    services = await startTwoServices('operator_revocation');
  });
  afterAll(async () => {
    await stopTwoServices(services);
  });

  it('holds at once on every process sharing the database, even while the read models lag', async () => {
    const { first, second } = services;
    const one = await first.createOperator('ops.tara', 'operator');
    const other = await first.createOperator('ops.tara', 'operator');
    const keep = await first.createOperator('ops.umar', 'operator');
    // Created on the first process, known to the second at its next request.
    expect((await second.adminAs(one.token, 'GET', '/operators/me')).body.name).toBe('ops.tara');

    // An open transaction holds every projection back: the revocation must not wait for them.
    const blocker = new Client({ connectionString: services.database.connectionString });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT pg_current_xact_id()');

      const revoked = await first.admin('POST', `/operators/${one.operatorId}/revoke`, { reason: 'laptop lost' });
      expect(revoked.status).toBe(200);
      expect(revoked.body.revoked).toEqual([
        { operator_id: one.operatorId, name: 'ops.tara', revoked_at: first.clock.now().toISOString() },
      ]);
      for (const service of [second, first]) {
        const refused = await service.adminAs(one.token, 'GET', '/partners');
        expectRefusal(refused, 401, 'invalid_admin_token');
        expect(refused.body.detail).toBe('the operator token has been revoked');
        expect((await service.adminAs(other.token, 'GET', '/operators/me')).status).toBe(200);
      }

      // By name: every token of the person, from the other process.
      const all = await second.admin('POST', '/operators/ops.tara/revoke', { reason: 'left the team' });
      expect(all.body.revoked.map((row: { operator_id: string }) => row.operator_id)).toEqual([other.operatorId]);
      for (const service of [first, second]) {
        expectRefusal(await service.adminAs(other.token, 'GET', '/partners'), 401, 'invalid_admin_token');
        expect((await service.adminAs(keep.token, 'GET', '/operators/me')).status).toBe(200);
      }
      expectRefusal(await first.admin('POST', '/operators/ops.tara/revoke', { reason: 'again' }), 409, 'invalid_state');
      expectRefusal(
        await first.admin('POST', '/operators/opr_000000000000000000000000/revoke', { reason: 'x' }),
        404,
        'not_found',
      );
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      await blocker.end();
    }

    const listed = (await second.admin('GET', '/operators')).body.operators;
    expect(listed.filter((row: any) => row.name === 'ops.tara')).toEqual([
      expect.objectContaining({ status: 'revoked', revoked_by: 'break-glass', revoke_reason: 'laptop lost' }),
      expect.objectContaining({ status: 'revoked', revoked_by: 'break-glass', revoke_reason: 'left the team' }),
    ]);
  });
});

describe('the break-glass token in the log', () => {
  let database: TestDatabase;
  let service: ServiceProcess;

  beforeAll(async () => {
    database = await createTestDatabase('break_glass_log');
    service = await ServiceProcess.start(
      'break-glass-log',
      {
        EVENT_STORE: 'postgres',
        DATABASE_URL: database.connectionString,
        API_KEY_SECRET: TEST_KEY_SECRET,
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        LOG_LEVEL: 'warn',
      },
      SERVICE_START_TIMEOUT_MS,
    );
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
  });

  const call = (method: string, path: string, token: string, body?: unknown) =>
    fetch(`${service.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  it('is logged as a warning when it is used in the back office (not for /metrics), never with the token', async () => {
    expect((await call('GET', '/metrics', TEST_ADMIN_TOKEN)).status).toBe(200);
    const created = await call('POST', '/v1/admin/operators', TEST_ADMIN_TOKEN, { name: 'ops.log', role: 'operator' });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as { token: string };
    await waitFor(() => service.output.includes('break-glass owner token (ADMIN_TOKEN) was used'), {
      what: 'the warning',
    });
    const warnings = service.output.split('\n').filter((line) => line.includes('break-glass owner token'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0])).toMatchObject({
      level: 40,
      context: 'BackOfficeAccess',
      msg: expect.stringContaining('POST /v1/admin/operators'),
    });
    expect(service.output).not.toContain('/metrics;');
    // An operator's own token is not a warning; neither token is ever written out.
    expect((await call('GET', '/v1/admin/partners', token)).status).toBe(200);
    expect(service.output).not.toContain(TEST_ADMIN_TOKEN);
    expect(service.output).not.toContain(token);
    expect(service.output.split('\n').filter((line) => line.includes('break-glass owner token'))).toHaveLength(1);
  });
});
