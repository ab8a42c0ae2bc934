import { Client } from 'pg';
import { WalletCommandProcessor } from '../../../src/application/wallets/wallet-command-processor';
import {
  VerifyMoneyInvariants,
  VerifyMoneyInvariantsHandler,
} from '../../../src/application/audit/verify-money-invariants';
import { CLOCK } from '../../../src/application/ports/clock.port';
import { EVENT_STORE, EventStore } from '../../../src/application/ports/event-store.port';
import { EVENT_LOG_DIAGNOSTICS, EventLogDiagnostics } from '../../../src/application/ports/event-log-diagnostics.port';
import { IDEMPOTENCY_STORE } from '../../../src/application/ports/idempotency-store.port';
import { PROJECTION_BARRIER, READ_MODELS } from '../../../src/application/ports/read-models.port';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

/**
 * `verify` compares the read models with the log as it walks it. An event committed behind a
 * transaction that is still open is not readable yet; if it becomes readable between the moment
 * verify asks for the head and its walk, the walk has it and the read models may not: verify used
 * to report a balance breach that was none (found by the simulation, seed 202 on a busy server).
 */
describe('verify when an event becomes readable during the check', () => {
  let service: TestService;
  let blocker: Client;

  beforeAll(async () => {
    // No projection poll: the read models move only when something waits for them.
    service = await TestService.start({ store: 'postgres', env: { PROJECTION_POLL_MS: '60000' } });
    blocker = new Client({ connectionString: service.databaseUrl! });
    await blocker.connect();
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await blocker.end().catch(() => undefined);
    await service.close();
  });

  const handlerOver = (store: EventStore, diagnostics: EventLogDiagnostics): VerifyMoneyInvariantsHandler =>
    new VerifyMoneyInvariantsHandler(
      store,
      diagnostics,
      service.app.get(READ_MODELS),
      service.app.get(PROJECTION_BARRIER),
      service.app.get(IDEMPOTENCY_STORE),
      service.app.get(CLOCK),
      service.app.get(WalletCommandProcessor),
    );

  it('reports no breach', async () => {
    const { sandboxKey } = await service.createPartner('IN');
    await service.settle();
    // A transaction with an id, open while the debit commits: the debit is not readable until it ends.
    await blocker.query('BEGIN');
    await blocker.query('SELECT pg_current_xact_id()');
    expect(
      (
        await service.topup(
          sandboxKey,
          { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 },
          'late-readable-0001',
        )
      ).status,
    ).toBe(200);

    const real = service.app.get<EventStore>(EVENT_STORE);
    const realDiagnostics = service.app.get<EventLogDiagnostics>(EVENT_LOG_DIAGNOSTICS);
    let open = true;
    const endBlocker = async (): Promise<void> => {
      if (!open) return;
      open = false;
      await blocker.query('COMMIT');
    };
    // The blocking transaction ends right after the first look at the log, whichever it is.
    const store: EventStore = Object.assign(Object.create(real) as EventStore, {
      readAll: async (...args: Parameters<EventStore['readAll']>) => {
        await endBlocker();
        return real.readAll(...args);
      },
    });
    const diagnostics: EventLogDiagnostics = Object.assign(Object.create(realDiagnostics) as EventLogDiagnostics, {
      headPosition: async () => {
        const head = await realDiagnostics.headPosition();
        await endBlocker();
        return head;
      },
    });
    const report = await handlerOver(store, diagnostics).execute(new VerifyMoneyInvariants());
    expect(report.breaches).toEqual([]);
    expect(report.checked.orders).toBe(1);
  });

  it('walks an order committed before the check although a transaction still holds it back when the walk reaches it', async () => {
    const { sandboxKey } = await service.createPartner('IN');
    await service.settle();
    const ordersBefore = (
      await handlerOver(service.app.get(EVENT_STORE), service.app.get(EVENT_LOG_DIAGNOSTICS)).execute(
        new VerifyMoneyInvariants(),
      )
    ).checked.orders;
    await blocker.query('BEGIN');
    await blocker.query('SELECT pg_current_xact_id()');
    const placed = await service.topup(
      sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 },
      'held-back-0001',
    );
    expect(placed.status).toBe(200);

    const real = service.app.get<EventStore>(EVENT_STORE);
    let open = true;
    // The blocking transaction ends only once the walk has found nothing more to read: a walk that
    // stopped there would miss the order.
    const store: EventStore = Object.assign(Object.create(real) as EventStore, {
      readAll: async (...args: Parameters<EventStore['readAll']>) => {
        const page = await real.readAll(...args);
        if (page.length === 0 && open) {
          open = false;
          await blocker.query('COMMIT');
        }
        return page;
      },
    });
    const report = await handlerOver(store, service.app.get(EVENT_LOG_DIAGNOSTICS)).execute(
      new VerifyMoneyInvariants(),
    );
    expect(open).toBe(false);
    expect(report.breaches).toEqual([]);
    expect(report.checked.orders).toBe(ordersBefore + 1);
  });
});
