import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { micros } from '../../../tools/provider-sim/sim-money';
import { dayAfter, reconciliationDueAt } from '../../../src/domain/reconciliation/reconciliation-schedule';
import {
  LiveUpstream,
  liveWalletPartner,
  setRoute,
  startLiveUpstream,
  transactionsOf,
} from '../../support/live-provider';
import { TEST_ADMIN_TOKEN } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';
import { TwoServices, startTwoServices, stopTwoServices } from '../../support/two-services';

const AT = { hour: 2, minute: 30 };
const ZONE = 'America/New_York'; // RELOADLY_REPORT_TIME_ZONE's default
const STUCK_AFTER_MS = 60_000;
const HOUR_MS = 3_600_000;
const TEST_TIMEOUT_MS = 120_000;

interface Run {
  date: string;
  trigger: string;
  job_id: string | null;
  outcome: string;
  error: string | null;
  counts: Record<string, number>;
  recorded: number;
  open_orders: number | null;
  mismatches: { kind: string; order_id: string; recorded: boolean }[];
}

/*
 * Reconciliation running by itself (docs/decisions/0123-scheduled-reconciliation.md): two service
 * instances on one database with one manual clock, live orders at the Reloadly simulator. Each
 * provider's UTC day runs at RECONCILIATION_AT (New York time) once, whichever instance claims it;
 * a held order is judged again on the following nights until the provider's report is final, and
 * each mismatch is recorded (and alerted) once; a report date that does not read fails the run,
 * which is shown and retried.
 */
describe('daily reconciliation on its own, at RECONCILIATION_AT, once across two instances (simulator, postgres)', () => {
  let upstream: LiveUpstream;
  let services: TwoServices;
  let db: Client;
  let day: string;
  const orders = { matched: '', amount: '', held: '' };
  const warnings: string[] = [];

  const clock = () => services.first.clock;
  const settle = async () => {
    await Promise.all([services.first.settle(), services.second.settle()]);
    await services.first.settle();
  };
  const advanceTo = async (at: Date) => {
    if (at.getTime() > clock().now().getTime()) clock().set(at);
    await settle();
  };
  const runsOf = async (date: string): Promise<Run[]> =>
    ((await services.second.admin('GET', '/providers/reconciliation/runs?limit=200')).body.runs as Run[]).filter(
      (run) => run.date === date,
    );
  const findingsOf = async (orderId: string) =>
    (await services.first.admin('GET', `/audit/orders/${orderId}`)).body.events.filter(
      (event: { event_type: string }) => event.event_type === 'ReconciliationMismatchFound',
    );
  const dueAt = (date: string) => reconciliationDueAt(date, AT, ZONE);
  const alerts = () => warnings.filter((line) => line.startsWith('ALERT reconciliation'));

  beforeAll(async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
    upstream = await startLiveUpstream();
    services = await startTwoServices('recsched', {
      env: { ...upstream.env, RECONCILIATION_AT: '02:30', STUCK_ORDER_AFTER_SECONDS: String(STUCK_AFTER_MS / 1000) },
    });
    db = new Client({ connectionString: services.database.connectionString });
    await db.connect();
    await setRoute(services.first, { kind: 'operator', id: 101, upstream_id: '1201' });
    const { liveKey } = await liveWalletPartner(services.first);
    const place = async (suffix: string, key: string) =>
      (await services.first.topup(liveKey, { operator_id: 101, phone: `+91987654${suffix}`, amount: 199 }, key)).body
        .order_id as string;
    orders.matched = await place('0001', 'sched-matched');
    orders.amount = await place('0001', 'sched-amount');
    orders.held = await place('0005', 'sched-held'); // PROCESSING at the provider for good: held here
    day = clock().now().toISOString().slice(0, 10);
    await settle();
    await advanceTo(new Date(clock().now().getTime() + STUCK_AFTER_MS + 1_000));
    expect((await services.first.admin('GET', `/orders/${orders.held}`)).body.status).toBe('DISPUTED');
    // The provider's books say another amount for one order.
    transactionsOf(upstream, orders.amount)[0].delivered = { amount: micros('150'), currency: 'INR' };
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    jest.restoreAllMocks();
    await db?.end();
    await stopTwoServices(services ?? {});
    await upstream?.close();
  });

  it(
    'runs the day that ended at RECONCILIATION_AT in the provider’s zone, not before, and once though both instances work the queue',
    async () => {
      const due = dueAt(day);
      await advanceTo(new Date(due.getTime() - 60_000));
      expect(await runsOf(day)).toEqual([]);

      await advanceTo(due);
      const runs = await runsOf(day);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({
        trigger: 'scheduled',
        job_id: `reconcile-provider:reloadly:${day}`,
        outcome: 'succeeded',
        // The held order is open here and still processing upstream: that is no disagreement yet.
        counts: { matched: 2, amount_mismatch: 1, provider_only: 0, ours_only: 0, status_mismatch: 0 },
        recorded: 1,
        open_orders: 1,
      });
      const jobs = await db.query<{ job_id: string; done: boolean; due_at: Date }>(
        `SELECT job_id, done_at IS NOT NULL AS done, due_at FROM jobs WHERE kind = 'reconcile-provider' AND job_id LIKE $1`,
        [`reconcile-provider:reloadly:${day}%`],
      );
      expect(jobs.rows).toEqual([{ job_id: `reconcile-provider:reloadly:${day}`, done: true, due_at: due }]);
      // The run scheduled the next night's, once.
      const next = await db.query<{ due_at: Date }>('SELECT due_at FROM jobs WHERE job_id = $1', [
        `reconcile-provider:reloadly:${dayAfter(day)}`,
      ]);
      expect(next.rows).toEqual([{ due_at: dueAt(dayAfter(day)) }]);

      expect(await findingsOf(orders.amount)).toHaveLength(1);
      expect(alerts().filter((line) => line.includes(orders.amount))).toEqual([
        `ALERT reconciliation mismatch: provider=reloadly date=${day} kind=amount_mismatch order_id="${orders.amount}" detail="the provider took 150 INR, the order is for 199.00 INR"`,
      ]);
      const metrics = (await services.first.request('GET', '/metrics', { token: TEST_ADMIN_TOKEN })).text;
      expect(metrics).toContain(
        'partner_service_reconciliation_mismatches_total{provider="reloadly",kind="amount_mismatch"} 1',
      );
      expect(metrics).toMatch(
        /partner_service_reconciliation_runs_total\{provider="reloadly",trigger="scheduled",outcome="succeeded"\} [1-9]/,
      );
      expect(metrics).toMatch(
        /partner_service_reconciliation_last_success_timestamp_seconds\{provider="reloadly"\} \d+/,
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'judges the day again on the following nights while the held order is in doubt, and records the provider’s late word once',
    async () => {
      // Past the order's follow-up horizon (24 hours for a Reloadly topup): nothing asks the provider about it any more.
      await advanceTo(new Date(Date.parse(`${day}T00:00:00.000Z`) + 2 * 24 * HOUR_MS));
      expect((await services.first.admin('GET', `/orders/${orders.held}`)).body.status).toBe('DISPUTED');
      const held = transactionsOf(upstream, orders.held)[0];
      held.status = 'SUCCESSFUL';

      await advanceTo(dueAt(dayAfter(day)));
      const again = (await runsOf(day)).filter((run) => run.trigger === 'in_doubt');
      expect(again).toHaveLength(1);
      expect(again[0]).toMatchObject({
        job_id: `reconcile-provider:reloadly:${day}:again:${dayAfter(day)}`,
        outcome: 'succeeded',
        counts: { matched: 1, amount_mismatch: 1, status_mismatch: 1 },
        recorded: 1,
        open_orders: 1,
      });
      expect(again[0].mismatches).toContainEqual({
        kind: 'status_mismatch',
        order_id: orders.held,
        detail: 'the provider says succeeded, the order is DISPUTED here',
        recorded: true,
      });
      expect((await runsOf(dayAfter(day))).map((run) => run.trigger)).toEqual(['scheduled']);

      // The next night judges it again (still held), and records nothing twice.
      await advanceTo(dueAt(dayAfter(day, 2)));
      expect((await runsOf(day)).filter((run) => run.trigger === 'in_doubt').map((run) => run.recorded)).toEqual([
        0, 1,
      ]);
      expect(await findingsOf(orders.held)).toHaveLength(1);
      expect(await findingsOf(orders.amount)).toHaveLength(1);
      expect(alerts().filter((line) => line.includes(orders.held))).toHaveLength(1);
      // Findings move no money: the order is still held for a person, and the ledger verifies.
      expect((await services.first.admin('GET', `/orders/${orders.held}`)).body.status).toBe('DISPUTED');
      expect((await services.first.verify()).body).toMatchObject({ ok: true });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'fails a run whose report has a date that does not read, shows why, and runs it again until it reads',
    async () => {
      const matched = transactionsOf(upstream, orders.matched)[0];
      matched.writtenDate = '2026-13-45 25:00:00';
      await advanceTo(dueAt(dayAfter(day, 3)));
      const failed = (await runsOf(day)).find((run) => run.outcome === 'failed');
      expect(failed).toMatchObject({
        trigger: 'in_doubt',
        job_id: `reconcile-provider:reloadly:${day}:again:${dayAfter(day, 3)}`,
        recorded: 0,
        open_orders: null,
      });
      expect(failed?.error).toBe(
        `reloadly: topup ${matched.id} (${orders.matched}) of the transaction report has a transactionDate that is not a time: "2026-13-45 25:00:00"`,
      );
      expect(warnings).toContainEqual(
        `ALERT reconciliation of reloadly ${day} failed (in_doubt, attempt 1): ${failed?.error ?? ''}`,
      );
      const [job] = (
        await db.query<{ attempts: number; done: boolean; last_error: string; due_at: Date }>(
          'SELECT attempts, done_at IS NOT NULL AS done, last_error, due_at FROM jobs WHERE job_id = $1',
          [failed?.job_id],
        )
      ).rows;
      expect(job).toMatchObject({ attempts: 1, done: false, last_error: failed?.error });

      // Once the report reads again, the queue's retry judges the day.
      delete matched.writtenDate;
      await advanceTo(job.due_at);
      const retried = (await runsOf(day)).filter((run) => run.job_id === failed?.job_id);
      expect(retried.map((run) => run.outcome)).toEqual(['succeeded', 'failed']);
    },
    TEST_TIMEOUT_MS,
  );
});
