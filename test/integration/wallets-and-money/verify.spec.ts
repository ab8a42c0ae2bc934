import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { Money } from '../../../src/domain/money/money';
import { forgeEvent, lastRecordedBalance, orderEvents, sandboxWallet } from '../../support/ledger';
import { SANDBOX_PHONES, STORES, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';
import { stderrBesidesProgress } from '../../support/run-cli';

const ROOT = join(__dirname, '..', '..', '..');
const STUCK_AFTER_MS = 60_000;

interface Breach {
  invariant: number;
  name: string;
  detail: string;
}

/** Runs the operator CLI's `verify` against a service and returns its exit code and output. */
function runCliVerify(serviceUrl: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, SERVICE_URL: serviceUrl, ADMIN_TOKEN: TEST_ADMIN_TOKEN };
  delete env.NODE_OPTIONS;
  return new Promise((resolve) => {
    execFile(
      join(ROOT, 'node_modules/.bin/tsx'),
      ['src/cli-main.ts', 'verify'],
      { cwd: ROOT, env, timeout: 20_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe.each(STORES)('verifying the money invariants (%s store)', (store) => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({ store, env: { STUCK_ORDER_AFTER_SECONDS: String(STUCK_AFTER_MS / 1000) } });
  });
  afterAll(async () => {
    await service.close();
  });

  const topup = async (token: string, suffix: string, idempotencyKey: string, amount = 100): Promise<string> => {
    const placed = await service.topup(
      token,
      { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount },
      idempotencyKey,
    );
    expect(placed.status).toBe(200);
    return placed.body.order_id;
  };
  const breachesOf = async (): Promise<Breach[]> => {
    await service.settle();
    const report = await service.verify();
    expect(report.status).toBe(409);
    expect(report.body.error).toBe('invariant_breach');
    return report.body.breaches as Breach[];
  };
  const forgedMetadata = (partnerId: string, orderId: string) => ({
    partnerId,
    environment: 'sandbox',
    correlationId: orderId,
    causationId: null,
    actor: { type: 'system', id: 'forger' },
    occurredAt: service.clock.now().toISOString(),
  });
  const forgeRefund = async (partnerId: string, orderId: string, amount: string): Promise<void> => {
    const stream = sandboxWallet(partnerId);
    const refund = Money.parse(amount, 'INR')!;
    const balanceAfter = (await lastRecordedBalance(service, stream, 'INR')).plus(refund);
    await forgeEvent(
      service,
      stream,
      'WalletRefunded',
      {
        orderId,
        amount,
        currency: 'INR',
        balanceAfter: balanceAfter.toDecimal(),
        reason: 'forged',
        refundedAt: service.clock.now().toISOString(),
      },
      forgedMetadata(partnerId, orderId),
    );
  };

  it('passes after a mixed run of every sandbox outcome, refunds, refusals and operator resolutions', async () => {
    const { sandboxKey } = await service.createPartner('IN', 'Mixed Partner');
    for (const suffix of ['0001', '0002', '0003', '0004']) await topup(sandboxKey, suffix, `mixed-${suffix}-key`);
    const heldForSuccess = await topup(sandboxKey, '0005', 'mixed-0005-key-a');
    const heldForFailure = await topup(sandboxKey, '0005', 'mixed-0005-key-b');
    // A replay and two refusals move no money.
    expect(
      (
        await service.topup(
          sandboxKey,
          { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 },
          'mixed-0001-key',
        )
      ).headers.get('idempotent-replay'),
    ).toBe('true');
    expect(
      (
        await service.topup(
          sandboxKey,
          { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 5000 },
          'mixed-too-much',
        )
      ).status,
    ).toBe(402);
    expect(
      (
        await service.topup(
          sandboxKey,
          { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 1 },
          'mixed-too-small',
        )
      ).status,
    ).toBe(422);

    await service.settle();
    await service.advance(30_000);
    await service.advance(STUCK_AFTER_MS - 30_000);
    expect(
      (
        await service.admin('POST', `/orders/${heldForSuccess}/resolve`, {
          outcome: 'success',
          reason: 'provider confirmed',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await service.admin('POST', `/orders/${heldForFailure}/resolve`, {
          outcome: 'failed',
          reason: 'provider has no record',
        })
      ).status,
    ).toBe(200);
    await service.settle();

    // 1000 - 6 x 100, refunded for 0002, 0004 and the order failed by the operator.
    expect((await service.partner('GET', '/balance', sandboxKey)).body.available).toBe('700.00');
    const report = await service.verify();
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ ok: true, breaches: [] });
    expect(report.body.checked.orders).toBeGreaterThanOrEqual(6);
  });

  // The CLI is an HTTP client of the service, whatever its store: it is run against one store only, to keep the file fast.
  const cliIt = it;

  cliIt('the operator CLI `verify` exits 0 on a clean ledger', async () => {
    const run = await runCliVerify(service.url);
    expect({ code: run.code, stderr: stderrBesidesProgress(run.stderr) }).toEqual({ code: 0, stderr: '' });
  });

  // From here on the tests tamper with the store; each looks for the breach it caused.

  it('a forged debit that overdraws a wallet is reported as a breach of the balance invariants', async () => {
    const { partnerId } = await service.createPartner('IN', 'Overdrawn Partner');
    const stream = sandboxWallet(partnerId);
    const orderId = 'ord_forged_overdraft';
    const amount = Money.parse('5000.00', 'INR')!;
    const balanceAfter = (await lastRecordedBalance(service, stream, 'INR')).minus(amount);
    await forgeEvent(
      service,
      stream,
      'WalletDebited',
      {
        orderId,
        amount: amount.toDecimal(),
        currency: 'INR',
        balanceAfter: balanceAfter.toDecimal(),
        reference: null,
        idempotencyKey: 'forged-overdraft-key',
        product: { kind: 'topup', operatorId: 101, phone: SANDBOX_PHONES.IN('0005') },
        placedAt: service.clock.now().toISOString(),
      },
      forgedMetadata(partnerId, orderId),
    );

    const breaches = await breachesOf();
    const onWallet = breaches.filter((breach) => breach.detail.includes(partnerId));
    expect(onWallet.map((breach) => breach.invariant)).toEqual(expect.arrayContaining([1]));
    expect(onWallet.every((breach) => breach.invariant === 1 || breach.invariant === 2)).toBe(true);
  });

  it('a second refund of a failed order is reported as a breach of invariant 4', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Refunded Twice Partner');
    const orderId = await topup(sandboxKey, '0002', 'twice-refunded-1');
    await service.settle();
    expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(1);

    await forgeRefund(partnerId, orderId, '100.00');

    const breaches = await breachesOf();
    expect(breaches).toContainEqual(
      expect.objectContaining({
        invariant: 4,
        detail: expect.stringContaining(`order ${orderId} was refunded 2 times`),
      }),
    );
  });

  it('a refund of a successful order is reported as a breach of invariant 4', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Refunded Success Partner');
    const orderId = await topup(sandboxKey, '0001', 'success-refunded');
    await service.settle();
    expect((await service.partner('GET', `/transactions/${orderId}`, sandboxKey)).body.status).toBe('SUCCESS');

    await forgeRefund(partnerId, orderId, '100.00');

    const breaches = await breachesOf();
    expect(breaches).toContainEqual(
      expect.objectContaining({
        invariant: 4,
        detail: expect.stringContaining(`order ${orderId} succeeded and was refunded`),
      }),
    );
  });

  it('a refund of an order the provider had acknowledged, failed on a refusal of a later attempt, is reported as a breach of invariant 4', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Refused Retry Partner');
    const orderId = await topup(sandboxKey, '0003', 'refused-retry-1');
    await service.settle();
    expect(await orderEvents(service, orderId, 'TransactionSubmitted')).toHaveLength(1);

    await forgeEvent(
      service,
      `order-${orderId}`,
      'TransactionFailed',
      {
        orderId,
        reason: 'reloadly refused the order: HTTP 400 PHONE_RECENTLY_RECHARGED',
        failedAt: service.clock.now().toISOString(),
        resolvedBy: null,
        basis: 'refused',
      },
      forgedMetadata(partnerId, orderId),
    );

    // The refund follows the forged failure as it follows any failure.
    const breaches = await breachesOf();
    expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(1);
    expect(breaches).toContainEqual(
      expect.objectContaining({
        invariant: 4,
        detail: expect.stringContaining(
          `order ${orderId} was failed on one attempt (refused: reloadly refused the order: HTTP 400 PHONE_RECENTLY_RECHARGED)`,
        ),
      }),
    );
  });

  cliIt('the operator CLI `verify` exits 1 on a tampered ledger and names the breaches', async () => {
    const run = await runCliVerify(service.url);
    expect(run.code).toBe(1);
    expect(`${run.stdout}${run.stderr}`).toContain('invariant_breach');
  });
});
