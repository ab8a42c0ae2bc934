import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECTION_ADMIN } from '../../../src/application/ports/projections.port';
import { Money } from '../../../src/domain/money/money';
import { SqlProjectionAdmin } from '../../../src/infrastructure/projections/sql-projection-admin';
import { SqlDatabase } from '../../../src/infrastructure/sql/sql-database';
import { sqlOf } from '../../support/ledger';
import { RecordingReceiver } from '../../support/recording-receiver';
import { HttpAnswer, SANDBOX_PHONES, STORES, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';
import { CliRun, runCli } from '../../support/run-cli';

const MINUTE = 60_000;

const inr = (amount: string): Money => {
  const money = Money.parse(amount, 'INR');
  if (!money) throw new Error(`not an INR amount: ${amount}`);
  return money;
};

interface Partner {
  partnerId: string;
  sandboxKey: string;
}

/** Everything a partner can read about itself through the API. */
async function partnerAnswers(
  service: TestService,
  partner: Partner,
  orderIds: string[],
): Promise<Record<string, unknown>> {
  const read = async (path: string): Promise<unknown> => {
    const answer = await service.partner('GET', path, partner.sandboxKey);
    return { status: answer.status, body: answer.body };
  };
  const transactions: Record<string, unknown> = {};
  for (const orderId of orderIds) transactions[orderId] = await read(`/transactions/${orderId}`);
  return {
    balance: await read('/balance'),
    list: await read('/transactions?limit=100'),
    failed: await read('/transactions?status=FAILED'),
    settings: await read('/settings'),
    transactions,
  };
}

/** What the reactions did: jobs scheduled, webhooks queued and delivered, provider outcomes recorded. */
async function sideEffects(db: SqlDatabase, receiver: RecordingReceiver): Promise<Record<string, unknown>> {
  const count = async (sql: string): Promise<number> => Number((await db.query<{ n: string }>(sql))[0].n);
  return {
    jobs: await count('SELECT count(*)::text AS n FROM jobs'),
    webhookDeliveries: await count('SELECT count(*)::text AS n FROM webhook_deliveries'),
    webhookAttempts: await count('SELECT count(*)::text AS n FROM webhook_attempts'),
    webhooksReceived: receiver.received.length,
    providerOutcomes: await count(
      `SELECT count(*)::text AS n FROM es_events WHERE event_type IN ('TransactionSettled', 'TransactionFailed', 'TransactionSubmitted')`,
    ),
    refunds: await count(`SELECT count(*)::text AS n FROM es_events WHERE event_type = 'WalletRefunded'`),
    reactionsCheckpoint: await db.query(
      `SELECT commit_position::text, prepare_position::text FROM projection_checkpoints WHERE name = 'reactions'`,
    ),
  };
}

/** Tables and schemas a rebuild leaves behind, if any. */
async function leftovers(db: SqlDatabase): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `SELECT schema_name AS name FROM information_schema.schemata WHERE schema_name LIKE 'rm\\_next\\_\\_%' OR schema_name LIKE 'rm\\_old\\_\\_%'
     UNION ALL
     SELECT table_schema || '.' || table_name FROM information_schema.tables WHERE table_name LIKE 'rm\\_%' AND table_schema <> current_schema()`,
  );
  return rows.map((row) => row.name);
}

async function versionsOf(service: TestService): Promise<Record<string, number>> {
  const status = await service.admin('GET', '/projections');
  expect(status.status).toBe(200);
  return Object.fromEntries(
    (status.body.projections as { name: string; version: number }[]).map((projection) => [
      projection.name,
      projection.version,
    ]),
  );
}

/** Starts a rebuild through the admin API and waits for it to end, without polling. */
async function rebuild(service: TestService, name: string): Promise<Record<string, unknown>> {
  const started = await service.admin('POST', `/projections/${name}/rebuild`);
  expect(started.status).toBe(202);
  expect(started.body).toMatchObject({
    projection: name,
    state: 'running',
    rebuild_id: expect.stringMatching(/^rbd_/),
  });
  await service.app.get<SqlProjectionAdmin>(PROJECTION_ADMIN).whenFinished(started.body.rebuild_id);
  const ended = await service.admin('GET', `/projections/rebuilds/${started.body.rebuild_id}`);
  expect(ended.status).toBe(200);
  return ended.body;
}

describe.each(STORES)('rebuilding read models from the event log without downtime (%s store)', (store) => {
  let service: TestService;
  let db: SqlDatabase;
  let receiver: RecordingReceiver;
  let first: Partner;
  let second: Partner;
  const orderIds: string[] = [];

  beforeAll(async () => {
    // The receiver listens on 127.0.0.1: a private deployment's opt-in.
    service = await TestService.start({ store, env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
    db = sqlOf(service);
    receiver = await RecordingReceiver.start();
    first = await service.createPartner('IN', 'Rebuild Partner One');
    second = await service.createPartner('IN', 'Rebuild Partner Two');
    expect(
      (
        await service.admin('PATCH', `/partners/${first.partnerId}/settings`, {
          environment: 'sandbox',
          webhook_url: receiver.url,
        })
      ).status,
    ).toBe(200);
    await service.admin('POST', `/partners/${first.partnerId}/wallet-credits`, {
      environment: 'sandbox',
      amount: '250.00',
      reference: 'extra test money',
    });
    const topup = async (partner: Partner, suffix: string, amount: number, key: string): Promise<void> => {
      const placed = await service.topup(
        partner.sandboxKey,
        { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount, reference: key },
        key,
      );
      expect(placed.status).toBe(200);
      orderIds.push(placed.body.order_id);
    };
    await topup(first, '0001', 100, 'rebuild-success');
    await topup(first, '0002', 40, 'rebuild-failure');
    await topup(first, '0005', 15, 'rebuild-held');
    await topup(second, '0001', 70, 'rebuild-second');
    await service.settle();
    await service.advance(20 * MINUTE);
    expect(receiver.received.length).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await service?.close();
    await receiver?.stop();
  });

  it('the status shows each projection at version 1, caught up with the log', async () => {
    const status = await service.admin('GET', '/projections');
    expect(status.status).toBe(200);
    const byName = Object.fromEntries(
      (status.body.projections as { name: string }[]).map((projection) => [projection.name, projection]),
    );
    expect(Object.keys(byName).sort()).toEqual([
      'balances',
      'key-scopes',
      'operator-actions',
      'order-daily-stats',
      'orders',
      'partner-events',
      'partner-settings',
      'partners',
      'reactions',
    ]);
    expect(byName.balances).toEqual({
      name: 'balances',
      group: 'read-models',
      rebuildable: true,
      version: 1,
      checkpoint: { commit: expect.stringMatching(/^\d+$/), prepare: expect.stringMatching(/^\d+$/) },
      lag_events: 0,
      rebuilt_at: null,
      rebuilding: null,
    });
    expect(byName.reactions).toMatchObject({ group: 'reactions', rebuildable: false, lag_events: 0 });
  });

  it.each(['balances', 'orders'])(
    'after rebuilding %s every partner reads the same balances and transactions, under a new version, and no side effect happens again',
    async (name) => {
      const before = {
        first: await partnerAnswers(service, first, orderIds.slice(0, 3)),
        second: await partnerAnswers(service, second, orderIds.slice(3)),
      };
      const effectsBefore = await sideEffects(db, receiver);
      const versionsBefore = await versionsOf(service);

      const ended = await rebuild(service, name);
      await service.settle();

      expect(ended).toMatchObject({
        projection: name,
        state: 'completed',
        phase: 'done',
        error: null,
        version_before: versionsBefore[name],
        version_after: versionsBefore[name] + 1,
      });
      expect(ended.events_applied).toBe(ended.events_total);
      expect(ended.events_applied).toBeGreaterThan(0);
      expect({
        first: await partnerAnswers(service, first, orderIds.slice(0, 3)),
        second: await partnerAnswers(service, second, orderIds.slice(3)),
      }).toEqual(before);
      expect(await versionsOf(service)).toEqual({ ...versionsBefore, [name]: versionsBefore[name] + 1 });
      expect(await leftovers(db)).toEqual([]);
      expect(await db.query(`SELECT name FROM projection_checkpoints WHERE name LIKE 'rebuild:%'`)).toEqual([]);
      expect(await sideEffects(db, receiver)).toEqual(effectsBefore);
      expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
    },
  );

  it('a rebuilt projection keeps following the log: a new order after the rebuild shows at once', async () => {
    const placed = await service.topup(
      second.sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 10 },
      'after-rebuild',
    );
    expect(placed.status).toBe(200);
    expect((await service.partner('GET', '/balance', second.sandboxKey)).body.available).toBe(
      placed.body.balance_after,
    );
    expect((await service.partner('GET', `/transactions/${placed.body.order_id}`, second.sandboxKey)).status).toBe(200);
    await service.settle();
  });

  it('the reactions that call providers and send webhooks can never be rebuilt', async () => {
    const refused = await service.admin('POST', '/projections/reactions/rebuild');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('invalid_state');
    expect(refused.text).toContain('never rebuilt');
  });

  it('an unknown projection is not found', async () => {
    const refused = await service.admin('POST', '/projections/ledger/rebuild');
    expect(refused.status).toBe(404);
    expect((await service.admin('GET', '/projections/rebuilds/rbd_nothing')).status).toBe(404);
  });

  it('a second rebuild of a projection that is being rebuilt is refused', async () => {
    const now = new Date().toISOString();
    await db.query(
      `INSERT INTO projection_rebuilds (rebuild_id, projection, state, phase, version_before, started_at, updated_at) VALUES ('rbd_elsewhere', 'partners', 'running', 'building', 1, $1, $1)`,
      [now],
    );
    try {
      const refused = await service.admin('POST', '/projections/partners/rebuild');
      expect(refused.status).toBe(409);
      expect(refused.text).toContain('rbd_elsewhere');
      const status = await service.admin('GET', '/projections');
      expect(
        (status.body.projections as { name: string; rebuilding: unknown }[]).find(
          (projection) => projection.name === 'partners',
        )?.rebuilding,
      ).toMatchObject({
        rebuild_id: 'rbd_elsewhere',
        state: 'running',
      });
    } finally {
      await db.query(`DELETE FROM projection_rebuilds WHERE rebuild_id = 'rbd_elsewhere'`);
    }
  });

  it('partners and partner settings rebuild too, and API keys keep working throughout', async () => {
    const before = await partnerAnswers(service, first, orderIds.slice(0, 3));
    const [partners, settings] = await Promise.all([
      rebuild(service, 'partners'),
      rebuild(service, 'partner-settings'),
    ]);
    expect(partners).toMatchObject({ state: 'completed', version_after: 2 });
    expect(settings).toMatchObject({ state: 'completed', version_after: 2 });
    expect(await partnerAnswers(service, first, orderIds.slice(0, 3))).toEqual(before);
    expect(await leftovers(db)).toEqual([]);
  });
});

describe('rebuilding under load (postgres store)', () => {
  let service: TestService;
  let busy: Partner;
  let quiet: Partner;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
    busy = await service.createPartner('IN', 'Busy Partner');
    quiet = await service.createPartner('IN', 'Quiet Partner');
    for (const partner of [busy, quiet]) {
      const raised = await service.admin('PATCH', `/partners/${partner.partnerId}/settings`, {
        environment: 'sandbox',
        rate_limit: 100_000,
      });
      expect(raised.status).toBe(200);
    }
    await service.admin('POST', `/partners/${busy.partnerId}/wallet-credits`, {
      environment: 'sandbox',
      amount: '100000.00',
      reference: 'load test money',
    });
    // A history worth rebuilding: a few hundred orders, settled, some failed and refunded.
    for (let lane = 0; lane < 4; lane++) {
      const placed = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          service.topup(
            busy.sandboxKey,
            { operator_id: 101, phone: SANDBOX_PHONES.IN(i % 5 === 0 ? '0002' : '0001'), amount: 10 + (i % 7) },
            `history-${lane}-${i}`,
          ),
        ),
      );
      expect(placed.map((answer) => answer.status)).toEqual(placed.map(() => 200));
    }
    await service.topup(
      quiet.sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 12 },
      'quiet-1',
    );
    await service.topup(
      quiet.sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0002'), amount: 10 },
      'quiet-2',
    );
    await service.settle();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('topups and reads made while balances and orders are rebuilt all succeed and every answer stays right', async () => {
    const quietBefore = await partnerAnswers(service, quiet, []);
    const admin = service.app.get<SqlProjectionAdmin>(PROJECTION_ADMIN);
    const started = await Promise.all(
      ['balances', 'orders'].map((name) => service.admin('POST', `/projections/${name}/rebuild`)),
    );
    expect(started.map((answer) => answer.status)).toEqual([202, 202]);
    let rebuilding = true;
    const finished = Promise.all(started.map((answer) => admin.whenFinished(answer.body.rebuild_id))).then(() => {
      rebuilding = false;
    });

    const problems: string[] = [];
    const expectAnswer = (what: string, answer: HttpAnswer, check: (answer: HttpAnswer) => boolean): void => {
      if (!check(answer)) problems.push(`${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
    };
    let placedDuringRebuild = 0;
    let readsDuringRebuild = 0;
    const placedOrders: string[] = [];

    // Each lane places an order, then reads its own write back: the balance it was told and the order itself.
    const writer = async (lane: number): Promise<void> => {
      for (let i = 0; rebuilding || i < 3; i++) {
        const during = rebuilding;
        const placed = await service.topup(
          busy.sandboxKey,
          { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 10 },
          `load-${lane}-${i}`,
        );
        expectAnswer('topup', placed, (answer) => answer.status === 200);
        if (placed.status !== 200) continue;
        if (during) placedDuringRebuild += 1;
        placedOrders.push(placed.body.order_id);
        const order = await service.partner('GET', `/transactions/${placed.body.order_id}`, busy.sandboxKey);
        expectAnswer(
          'read own order',
          order,
          (answer) => answer.status === 200 && answer.body.order_id === placed.body.order_id,
        );
        const balance = await service.partner('GET', '/balance', busy.sandboxKey);
        // Other lanes only debit, so the balance read back is at most the one this topup was told.
        expectAnswer(
          'read own balance',
          balance,
          (answer) => answer.status === 200 && !inr(placed.body.balance_after).isLessThan(inr(answer.body.available)),
        );
      }
    };
    // The quiet partner does nothing: whatever it reads during the rebuild must be exactly what it read before.
    const reader = async (): Promise<void> => {
      for (let i = 0; rebuilding || i < 3; i++) {
        const during = rebuilding;
        const now = await partnerAnswers(service, quiet, []);
        if (JSON.stringify(now) !== JSON.stringify(quietBefore))
          problems.push(`quiet partner read ${JSON.stringify(now)}`);
        if (during) readsDuringRebuild += 1;
      }
    };
    await Promise.all([writer(0), writer(1), writer(2), reader(), reader(), finished]);

    expect(problems).toEqual([]);
    expect(placedDuringRebuild).toBeGreaterThan(0);
    expect(readsDuringRebuild).toBeGreaterThan(0);
    for (const answer of started) {
      expect((await service.admin('GET', `/projections/rebuilds/${answer.body.rebuild_id}`)).body).toMatchObject({
        state: 'completed',
        version_after: 2,
      });
    }

    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
    const listed = new Set<string>();
    for (let cursor: string | undefined, page = 0; page < 20; page++) {
      const answer = await service.partner(
        'GET',
        `/transactions?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        busy.sandboxKey,
      );
      for (const order of answer.body.transactions) listed.add(order.order_id);
      cursor = answer.body.next_cursor ?? undefined;
      if (!cursor) break;
    }
    for (const orderId of placedOrders) expect(listed.has(orderId)).toBe(true);

    // The tables switched in under load hold exactly what a rebuild on a quiet service gives.
    const db = sqlOf(service);
    const tables = async () => ({
      balances: await db.query('SELECT * FROM rm_balances ORDER BY partner_id, environment'),
      orders: await db.query('SELECT * FROM rm_orders ORDER BY order_id'),
    });
    const builtUnderLoad = await tables();
    expect((await rebuild(service, 'balances')).state).toBe('completed');
    expect((await rebuild(service, 'orders')).state).toBe('completed');
    expect(await tables()).toEqual(builtUnderLoad);
  });
});

describe('the projections commands of the operator CLI', () => {
  let service: TestService;
  let scratch: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
    scratch = mkdtempSync(join(tmpdir(), 'cli-projections-'));
    env = { SERVICE_URL: service.url, ADMIN_TOKEN: TEST_ADMIN_TOKEN, DATA_DIR: join(scratch, 'no-data-here') };
    const partner = await service.createPartner('SG', 'CLI Rebuild Partner');
    await service.topup(
      partner.sandboxKey,
      { operator_id: 301, phone: SANDBOX_PHONES.SG('0001'), amount: 5 },
      'cli-rebuild',
    );
    await service.settle();
  });
  afterAll(async () => {
    await service?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const lines = (run: CliRun): Record<string, unknown>[] =>
    run.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('projections status prints one JSON object with every projection', async () => {
    const run = await runCli(['projections', 'status'], env);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const [printed] = lines(run);
    expect(lines(run)).toHaveLength(1);
    expect(
      (printed.projections as { name: string; version: number }[]).map((projection) => projection.name).sort(),
    ).toEqual([
      'balances',
      'key-scopes',
      'operator-actions',
      'order-daily-stats',
      'orders',
      'partner-events',
      'partner-settings',
      'partners',
      'reactions',
    ]);
  });

  it('projections rebuild prints JSON progress lines when not on a terminal, and the completed rebuild last', async () => {
    const run = await runCli(['projections', 'rebuild', 'balances'], env);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const printed = lines(run);
    expect(printed.length).toBeGreaterThanOrEqual(1);
    for (const line of printed)
      expect(line).toMatchObject({ projection: 'balances', rebuild_id: printed[0].rebuild_id });
    expect(printed[printed.length - 1]).toMatchObject({ state: 'completed', phase: 'done', version_after: 2 });
  });

  it('projections rebuild of the reactions exits 1 with the refusal on stderr', async () => {
    const run = await runCli(['projections', 'rebuild', 'reactions'], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toMatchObject({ error: 'invalid_state' });
  });
});
