import { GlobalPosition } from '../../../src/application/ports/event-store.port';
import { ProjectionDaemon } from '../../../src/infrastructure/projections/projection-daemon';
import { SqlDatabase } from '../../../src/infrastructure/sql/sql-database';
import { SQL_DATABASE } from '../../../src/composition/tokens';
import { SANDBOX_PHONES, STORES, TestService } from '../../support/test-service';

const READ_MODEL_TABLES = {
  rm_balances: 'partner_id, environment',
  rm_orders: 'order_id',
  rm_partners: 'partner_id',
  rm_api_keys: 'key_id',
  rm_operator_actions: 'event_id',
  rm_partner_events: 'commit_position, prepare_position',
  rm_order_daily_stats: 'day, environment, currency, operator, provider, outcome',
} as const;

type Snapshot = Record<keyof typeof READ_MODEL_TABLES, object[]>;

const MINUTE = 60_000;

/**
 * settle(), then make sure every consumer of the log has reached its last event.
 * On a shared PostgreSQL server an open transaction in any other database hides the newest
 * events from the reader for a moment (the reader's horizon is the server-wide snapshot xmin),
 * so settle() can return one event short; the service's own read-your-writes barrier then
 * waits for it, and settle() runs whatever it leads to.
 */
async function settleFully(service: TestService, db: SqlDatabase): Promise<void> {
  for (let round = 0; round < 20; round++) {
    await service.settle();
    const [head] = await db.query<{ commit: string; prepare: string }>(
      `SELECT transaction_id::text AS commit, global_position::text AS prepare FROM es_events
        ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    );
    if (!head) return;
    const behind = await db.query(
      `SELECT name FROM projection_checkpoints
        WHERE commit_position IS DISTINCT FROM $1::bigint OR prepare_position IS DISTINCT FROM $2::bigint`,
      [head.commit, head.prepare],
    );
    if (behind.length === 0) return;
    const position: GlobalPosition = { commit: BigInt(head.commit), prepare: BigInt(head.prepare) };
    await service.app.get(ProjectionDaemon).waitFor(position);
  }
  throw new Error('the read models did not catch up with the event log');
}

describe.each(STORES)('the read models are rebuilt from the event log (%s store)', (store) => {
  let service: TestService;
  let db: SqlDatabase;
  let original: Snapshot;
  let originalCheckpoint: object[];

  const snapshot = async (): Promise<Snapshot> => {
    const result = {} as Snapshot;
    for (const [table, order] of Object.entries(READ_MODEL_TABLES) as [keyof Snapshot, string][]) {
      result[table] = await db.query(`SELECT * FROM ${table} ORDER BY ${order}`);
    }
    return result;
  };
  const checkpoint = () =>
    db.query(
      "SELECT commit_position::text AS commit, prepare_position::text AS prepare FROM projection_checkpoints WHERE name = 'read-models'",
    );
  const resetCheckpoint = () =>
    db.query(
      "UPDATE projection_checkpoints SET commit_position = NULL, prepare_position = NULL WHERE name = 'read-models'",
    );

  beforeAll(async () => {
    service = await TestService.start({ store });
    db = service.app.get<SqlDatabase>(SQL_DATABASE);

    // A day of activity touching every read model: onboarding, KYC changes, key regeneration,
    // funding, and orders ending in success, failure with refund, delayed failure, and a hold.
    const first = await service.createPartner('IN', 'Replay Partner One');
    const second = await service.createPartner('SG', 'Replay Partner Two');
    await service.admin('POST', `/partners/${first.partnerId}/kyc`, { status: 'approved' });
    await service.admin('POST', `/partners/${first.partnerId}/wallet-credits`, {
      environment: 'live',
      amount: '1234.56',
      reference: 'wire 1',
    });
    await service.admin('POST', `/partners/${first.partnerId}/kyc`, { status: 'suspended' });
    await service.admin('POST', `/partners/${first.partnerId}/kyc`, { status: 'approved' });
    const regenerated = await service.admin('POST', `/partners/${first.partnerId}/keys/regenerate`, {
      environment: 'sandbox',
    });
    const key = regenerated.body.api_key as string;

    const topup = (suffix: string, amount: number, idempotencyKey: string) =>
      service.topup(
        key,
        { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount, reference: `replay-${idempotencyKey}` },
        idempotencyKey,
      );
    await topup('0001', 100, 'replay-success');
    await topup('0002', 50, 'replay-failure');
    await topup('0004', 25, 'replay-late-failure');
    const heldThenFailed = (await topup('0005', 10, 'replay-held-failed')).body.order_id;
    await topup('0005', 20, 'replay-held');
    await service.advance(30_000);
    await service.advance(20 * MINUTE); // past the stuck-order limit: both 0005 orders are held
    const resolved = await service.admin('POST', `/orders/${heldThenFailed}/resolve`, {
      outcome: 'failed',
      reason: 'operator confirmed failure',
    });
    expect(resolved.status).toBe(200);
    await settleFully(service, db);
    expect((await service.partner('GET', '/balance', second.sandboxKey)).body.available).toBe('1000.00');

    original = await snapshot();
    originalCheckpoint = await checkpoint();
  });
  afterAll(async () => {
    await service.close();
  });

  it('the activity shows in every read model, including an order held for an operator', () => {
    expect(original.rm_partners).toHaveLength(2);
    expect(original.rm_api_keys).toHaveLength(4); // two sandbox keys (one revoked), a live key, and the second partner's
    expect(original.rm_balances).toHaveLength(3);
    // Onboarding, KYC, key regeneration, the credit and the resolution: the break-glass owner's actions.
    expect(original.rm_operator_actions.length).toBeGreaterThanOrEqual(8);
    expect(original.rm_orders.map((order) => (order as { status: string }).status).sort()).toEqual([
      'DISPUTED',
      'FAILED',
      'FAILED',
      'FAILED',
      'SUCCESS',
    ]);
    expect(originalCheckpoint).toEqual([{ commit: expect.any(String), prepare: expect.any(String) }]);
  });

  it('applying every event a second time changes no row', async () => {
    await resetCheckpoint();
    expect(await checkpoint()).toEqual([{ commit: null, prepare: null }]);
    await settleFully(service, db);
    expect(await checkpoint()).toEqual(originalCheckpoint);
    expect(await snapshot()).toEqual(original);
  });

  it('rebuilding from empty tables gives the same rows', async () => {
    await db.query(`TRUNCATE ${Object.keys(READ_MODEL_TABLES).join(', ')}`);
    await resetCheckpoint();
    const emptied = await snapshot();
    expect(Object.values(emptied).every((rows) => rows.length === 0)).toBe(true);
    await settleFully(service, db);
    expect(await checkpoint()).toEqual(originalCheckpoint);
    expect(await snapshot()).toEqual(original);
  });

  it('after the rebuild the money invariants still hold', async () => {
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });
});
