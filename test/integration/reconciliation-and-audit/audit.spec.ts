import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../support/manual-clock';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { forgeEvent, sandboxWallet } from '../../support/ledger';
import { SANDBOX_PHONES, STORES, StoreKind, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';
import { CliRun, runCli, stderrBesidesProgress } from '../../support/run-cli';

interface AuditLine {
  revision: number;
  position: string;
  recorded_at: string;
  occurred_at: string;
  event_type: string;
  event_id: string;
  order_id: string | null;
  kind: string;
  amount: string;
  signed_amount: string;
  running_balance: string;
  balance_after: string;
  balance_matches: boolean;
  currency: string;
  actor_type: string;
  actor_id: string;
  correlation_id: string;
  reference: string | null;
  reason: string | null;
}

const jsonLines = (text: string): AuditLine[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditLine);

/** A small RFC 4180 reader: quoted fields, doubled quotes, CRLF rows. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += char;
  }
  if (field !== '' || row.length) rows.push([...row, field]);
  return rows;
}

const DAY_BEFORE = new Date('2026-03-09T10:00:00.000Z');
const STATEMENT_DAY = '2026-03-10';
const DAY_AFTER = new Date('2026-03-11T09:00:00.000Z');

/**
 * A partner's sandbox history over three days. On the statement day: an operator credit of 250,
 * a successful 200 topup, a failed 50 topup that is refunded, and a successful 30 topup.
 */
async function threeDaysOfActivity(service: TestService, clock: ManualClock) {
  clock.set(DAY_BEFORE);
  const partner = await service.createPartner('IN', 'Audit Partner');
  const topup = async (suffix: string, amount: number, key: string): Promise<string> => {
    const placed = await service.topup(
      partner.sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount, reference: `audit ${key}` },
      key,
    );
    expect(placed.status).toBe(200);
    await service.settle();
    return placed.body.order_id;
  };
  await topup('0001', 100, 'day-before');

  clock.set(new Date(`${STATEMENT_DAY}T08:00:00.000Z`));
  const credited = await service.admin('POST', `/partners/${partner.partnerId}/wallet-credits`, {
    environment: 'sandbox',
    amount: '250.00',
    reference: 'wire, "March"',
  });
  expect(credited.status).toBe(200);
  clock.advance(60_000);
  const succeeded = await topup('0001', 200, 'statement-success');
  clock.advance(60_000);
  const failed = await topup('0002', 50, 'statement-failure');
  clock.advance(60_000);
  await topup('0001', 30, 'statement-late');

  clock.set(DAY_AFTER);
  await topup('0001', 20, 'day-after');
  return { partner, succeeded, failed };
}

describe.each(STORES)('the finance audit (%s store)', (store: StoreKind) => {
  let service: TestService;
  let clock: ManualClock;
  let activity: Awaited<ReturnType<typeof threeDaysOfActivity>>;
  let other: { partnerId: string; sandboxKey: string };

  beforeAll(async () => {
    clock = new ManualClock(DAY_BEFORE);
    service = await TestService.start({ store, clock });
    activity = await threeDaysOfActivity(service, clock);
    other = await service.createPartner('BD', 'Second Audit Partner');
    await service.admin('POST', `/partners/${activity.partner.partnerId}/kyc`, { status: 'approved' });
    await service.admin('POST', `/partners/${activity.partner.partnerId}/wallet-credits`, {
      environment: 'live',
      amount: '5000.00',
      reference: 'first live funding',
    });
    const placed = await service.topup(
      other.sandboxKey,
      { operator_id: 201, phone: SANDBOX_PHONES.BD('0002'), amount: 100 },
      'other-failure',
    );
    expect(placed.status).toBe(200);
    await service.settle();
  });
  afterAll(async () => {
    await service?.close();
  });

  const walletAudit = (partnerId: string, environment: string, query: string) =>
    service.admin('GET', `/audit/wallets/${partnerId}/${environment}?${query}`);

  it('the running balance of every wallet ends at the balance the API shows, and every event records the balance it folds to', async () => {
    let wallets = 0;
    for (const partnerId of [activity.partner.partnerId, other.partnerId]) {
      const shown = await service.admin('GET', `/partners/${partnerId}`);
      for (const environment of ['sandbox', 'live'] as const) {
        const audit = await walletAudit(partnerId, environment, 'format=jsonl');
        expect(audit.status).toBe(200);
        expect(audit.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
        const lines = jsonLines(audit.text);
        const balance = shown.body.balances[environment];
        if (balance === null) {
          expect(lines).toEqual([]);
          continue;
        }
        wallets += 1;
        expect(lines[lines.length - 1].running_balance).toBe(balance.available);
        expect(lines.every((line) => line.balance_matches && line.balance_after === line.running_balance)).toBe(true);
        expect(lines.map((line) => line.revision)).toEqual(lines.map((_, index) => index));
      }
    }
    expect(wallets).toBe(3);
  });

  it('each line names the event, its order, its actor, the amount signed and the reference', async () => {
    const lines = jsonLines((await walletAudit(activity.partner.partnerId, 'sandbox', 'format=jsonl')).text);
    expect(lines.map((line) => [line.event_type, line.kind, line.signed_amount, line.running_balance])).toEqual([
      ['WalletCredited', 'sandbox_grant', '1000.00', '1000.00'],
      ['WalletDebited', 'topup', '-100.00', '900.00'],
      ['WalletCredited', 'funding', '250.00', '1150.00'],
      ['WalletDebited', 'topup', '-200.00', '950.00'],
      ['WalletDebited', 'topup', '-50.00', '900.00'],
      ['WalletRefunded', 'refund', '50.00', '950.00'],
      ['WalletDebited', 'topup', '-30.00', '920.00'],
      ['WalletDebited', 'topup', '-20.00', '900.00'],
    ]);
    const credit = lines[2];
    expect(credit).toMatchObject({
      actor_type: 'operator',
      order_id: null,
      reference: 'wire, "March"',
      amount: '250.00',
      currency: 'INR',
      occurred_at: `${STATEMENT_DAY}T08:00:00.000Z`,
    });
    const debit = lines[3];
    expect(debit).toMatchObject({
      actor_type: 'partner_key',
      order_id: activity.succeeded,
      correlation_id: activity.succeeded,
      reference: 'audit statement-success',
    });
    const refund = lines[5];
    expect(refund).toMatchObject({ actor_type: 'system', order_id: activity.failed, reason: expect.any(String) });
    expect(lines[0].position).toMatch(/^\d+\/\d+$/);
  });

  it('a period keeps the running balance counted from the first event of the wallet', async () => {
    const lines = jsonLines(
      (
        await walletAudit(
          activity.partner.partnerId,
          'sandbox',
          `format=jsonl&from=${STATEMENT_DAY}&to=${STATEMENT_DAY}`,
        )
      ).text,
    );
    expect(lines.map((line) => [line.event_type, line.running_balance])).toEqual([
      ['WalletCredited', '1150.00'],
      ['WalletDebited', '950.00'],
      ['WalletDebited', '900.00'],
      ['WalletRefunded', '950.00'],
      ['WalletDebited', '920.00'],
    ]);
    expect(
      jsonLines((await walletAudit(activity.partner.partnerId, 'sandbox', 'format=jsonl&from=2026-03-11')).text),
    ).toHaveLength(1);
  });

  it('the CSV has a header and the same rows as the JSON lines, with commas and quotes kept intact', async () => {
    const csv = await walletAudit(activity.partner.partnerId, 'sandbox', 'format=csv');
    const jsonl = await walletAudit(activity.partner.partnerId, 'sandbox', 'format=jsonl');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...rows] = csvRows(csv.text);
    const lines = jsonLines(jsonl.text);
    expect(header).toEqual(Object.keys(lines[0]));
    expect(rows).toEqual(
      lines.map((line) => Object.values(line).map((value) => (value === null ? '' : String(value)))),
    );
  });

  it('the statement of a day with debits, refunds and credits adds up', async () => {
    const statement = await service.admin(
      'GET',
      `/audit/statements/${activity.partner.partnerId}/sandbox?date=${STATEMENT_DAY}`,
    );
    expect(statement.status).toBe(200);
    expect(statement.body).toEqual({
      partner_id: activity.partner.partnerId,
      environment: 'sandbox',
      currency: 'INR',
      date: STATEMENT_DAY,
      as_of: service.clock.now().toISOString(),
      complete: true,
      opening_balance: '900.00',
      debits: '280.00',
      refunds: '50.00',
      credits: '250.00',
      closing_balance: '920.00',
      counts: { debits: 3, refunds: 1, credits: 1 },
      adds_up: true,
      checks: {
        opening_matches_recorded_balance: true,
        closing_matches_recorded_balance: true,
        every_balance_after_matches_the_fold: true,
      },
    });
  });

  it('the statement of a quiet day carries the balance over unchanged', async () => {
    const today = clock.now();
    clock.set(new Date('2026-03-21T12:00:00.000Z'));
    try {
      const statement = await service.admin(
        'GET',
        `/audit/statements/${activity.partner.partnerId}/sandbox?date=2026-03-20`,
      );
      expect(statement.body).toMatchObject({
        opening_balance: '900.00',
        debits: '0.00',
        refunds: '0.00',
        credits: '0.00',
        closing_balance: '900.00',
        adds_up: true,
        complete: true,
      });
    } finally {
      clock.set(today);
    }
  });

  it('the statement of today says it may still change, and a day to come has none', async () => {
    const today = clock.now().toISOString().slice(0, 10);
    const tomorrow = new Date(clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    const current = await service.admin('GET', `/audit/statements/${activity.partner.partnerId}/sandbox?date=${today}`);
    expect(current.body).toMatchObject({
      date: today,
      complete: false,
      as_of: clock.now().toISOString(),
      adds_up: true,
    });
    const ahead = await service.admin(
      'GET',
      `/audit/statements/${activity.partner.partnerId}/sandbox?date=${tomorrow}`,
    );
    expect({ status: ahead.status, body: ahead.body }).toEqual({
      status: 400,
      body: {
        error: 'validation_failed',
        detail: `date: not after today, ${today} (UTC); a day to come has no statement yet`,
      },
    });
  });

  it('a report over several days lists each day as its daily statement gives it, and totals that add up', async () => {
    const partnerId = activity.partner.partnerId;
    const report = await service.admin('GET', `/audit/reports/${partnerId}/sandbox?from=2026-03-09&to=2026-03-11`);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({
      partner_id: partnerId,
      partner_name: 'Audit Partner',
      environment: 'sandbox',
      currency: 'INR',
      from: '2026-03-09',
      to: '2026-03-11',
      as_of: service.clock.now().toISOString(),
      complete: false,
      opening_balance: '0.00',
      debits: '400.00',
      refunds: '50.00',
      credits: '1250.00',
      closing_balance: '900.00',
      counts: { debits: 5, refunds: 1, credits: 2 },
      adds_up: true,
    });
    const days = report.body.days as { date: string }[];
    expect(days.map((day) => day.date)).toEqual(['2026-03-09', '2026-03-10', '2026-03-11']);
    for (const { date, ...day } of days) {
      const statement = await service.admin('GET', `/audit/statements/${partnerId}/sandbox?date=${date}`);
      const {
        partner_id,
        environment,
        currency,
        date: statementDate,
        as_of: _asOf,
        complete: _complete,
        ...figures
      } = statement.body;
      expect({ partner_id, environment, currency, statementDate }).toEqual({
        partner_id: partnerId,
        environment: 'sandbox',
        currency: 'INR',
        statementDate: date,
      });
      expect(day).toEqual(figures);
    }
  });

  it('a report starting after the first events opens with their balance, and refuses backwards, overlong or malformed periods', async () => {
    const partnerId = activity.partner.partnerId;
    const report = await service.admin('GET', `/audit/reports/${partnerId}/sandbox?from=2026-03-11&to=2026-03-11`);
    expect(report.body).toMatchObject({
      opening_balance: '920.00',
      debits: '20.00',
      closing_balance: '900.00',
      adds_up: true,
    });
    const refused = async (query: string, status = 400) => {
      const answer = await service.admin('GET', `/audit/reports/${partnerId}/sandbox?${query}`);
      expect({ query, status: answer.status, error: answer.body.error }).toEqual({
        query,
        status,
        error: status === 400 ? 'validation_failed' : 'not_found',
      });
      return answer.body.detail as string;
    };
    expect(await refused('from=2026-03-11&to=2026-03-10')).toContain('to');
    expect(await refused('from=2025-03-10&to=2026-03-11')).toContain('366');
    expect(await refused('to=2026-03-11')).toContain('from');
    expect(await refused('from=2026-02-30&to=2026-03-11')).toContain('from');
    expect(await refused('from=2026-03-10&to=2026-03-11&format=pdf')).toContain('format');
    expect(await refused('from=2026-03-10&to=2026-03-11&fromat=html')).toContain('fromat');
    const today = service.clock.now().toISOString().slice(0, 10);
    const tomorrow = new Date(service.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    expect(await refused(`from=${today}&to=${tomorrow}`)).toContain(`to: not after today, ${today}`);
    expect(
      (await service.admin('GET', `/audit/reports/${partnerId}/sandbox?from=2026-03-09&to=2026-03-10`)).body.complete,
    ).toBe(true);
    expect((await service.admin('GET', '/audit/reports/p_nobody/sandbox?from=2026-03-10&to=2026-03-11')).status).toBe(
      404,
    );
    expect(
      (await service.admin('GET', `/audit/reports/${partnerId}/staging?from=2026-03-10&to=2026-03-11`)).status,
    ).toBe(400);
    // A full leap year is allowed (before the wallet existed: all zero).
    const leapYear = await service.admin('GET', `/audit/reports/${partnerId}/sandbox?from=2024-01-01&to=2024-12-31`);
    expect(leapYear.body).toMatchObject({
      opening_balance: '0.00',
      closing_balance: '0.00',
      adds_up: true,
      complete: true,
    });
    expect(leapYear.body.days).toHaveLength(366);
  });

  it("an order's audit shows its debit, initiation, failure and refund in the order they happened", async () => {
    const audit = await service.admin('GET', `/audit/orders/${activity.failed}`);
    expect(audit.status).toBe(200);
    expect(audit.body).toMatchObject({
      order_id: activity.failed,
      partner_id: activity.partner.partnerId,
      environment: 'sandbox',
      outcome: 'FAILED',
    });
    const events = audit.body.events as {
      event_type: string;
      stream_id: string;
      position: string;
      actor: { type: string };
    }[];
    expect(events.map((event) => event.event_type)).toEqual([
      'WalletDebited',
      'TransactionInitiated',
      'TransactionFailed',
      'WalletRefunded',
    ]);
    expect(events.map((event) => event.stream_id)).toEqual([
      sandboxWallet(activity.partner.partnerId),
      `order-${activity.failed}`,
      `order-${activity.failed}`,
      sandboxWallet(activity.partner.partnerId),
    ]);
    expect(events[0].actor.type).toBe('partner_key');
    const succeeded = await service.admin('GET', `/audit/orders/${activity.succeeded}`);
    expect((succeeded.body.events as { event_type: string }[]).map((event) => event.event_type)).toEqual([
      'WalletDebited',
      'TransactionInitiated',
      'TransactionSettled',
    ]);
    expect(succeeded.body.outcome).toBe('SUCCESS');
  });

  it('unknown partners, orders and malformed requests are refused before anything is streamed', async () => {
    expect((await walletAudit('p_nobody', 'sandbox', 'format=jsonl')).status).toBe(404);
    expect((await walletAudit(activity.partner.partnerId, 'staging', 'format=jsonl')).status).toBe(400);
    expect((await walletAudit(activity.partner.partnerId, 'sandbox', 'format=xml')).status).toBe(400);
    expect((await walletAudit(activity.partner.partnerId, 'sandbox', 'format=csv&from=2026-02-30')).status).toBe(400);
    expect(
      (await walletAudit(activity.partner.partnerId, 'sandbox', 'format=csv&from=2026-03-11&to=2026-03-10')).status,
    ).toBe(400);
    expect((await service.admin('GET', '/audit/orders/ord_nothing')).status).toBe(404);
    expect((await service.admin('GET', `/audit/statements/${activity.partner.partnerId}/sandbox`)).status).toBe(400);
    expect((await service.admin('GET', '/audit/statements/p_nobody/sandbox?date=2026-03-10')).status).toBe(404);
  });

  it('a statement whose events record a balance that does not follow from the amounts says it does not add up', async () => {
    clock.set(new Date('2026-03-12T10:00:00.000Z'));
    const forged = await service.createPartner('IN', 'Tampered Partner');
    await forgeEvent(
      service,
      sandboxWallet(forged.partnerId),
      'WalletCredited',
      {
        creditId: 'crd_forged',
        amount: '10.00',
        currency: 'INR',
        balanceAfter: '1100.00',
        kind: 'funding',
        reference: 'forged',
        creditedAt: clock.now().toISOString(),
      },
      {
        partnerId: forged.partnerId,
        environment: 'sandbox',
        correlationId: 'crd_forged',
        causationId: null,
        actor: { type: 'system', id: 'forger' },
        occurredAt: clock.now().toISOString(),
      },
    );
    const statement = await service.admin('GET', `/audit/statements/${forged.partnerId}/sandbox?date=2026-03-12`);
    expect(statement.body).toMatchObject({
      opening_balance: '0.00',
      credits: '1010.00',
      closing_balance: '1010.00',
      adds_up: false,
      checks: { closing_matches_recorded_balance: false, every_balance_after_matches_the_fold: false },
    });
    const lines = jsonLines((await walletAudit(forged.partnerId, 'sandbox', 'format=jsonl')).text);
    expect(lines[lines.length - 1]).toMatchObject({
      running_balance: '1010.00',
      balance_after: '1100.00',
      balance_matches: false,
    });
    const report = await service.admin(
      'GET',
      `/audit/reports/${forged.partnerId}/sandbox?from=2026-03-11&to=2026-03-12`,
    );
    expect(report.body.adds_up).toBe(false);
    expect((report.body.days as { adds_up: boolean }[]).map((day) => day.adds_up)).toEqual([true, false]);
  });
});

describe('the audit commands of the operator CLI', () => {
  let service: TestService;
  let clock: ManualClock;
  let scratch: string;
  let env: Record<string, string>;
  let activity: Awaited<ReturnType<typeof threeDaysOfActivity>>;

  beforeAll(async () => {
    clock = new ManualClock(DAY_BEFORE);
    service = await TestService.start({ store: 'postgres', clock });
    activity = await threeDaysOfActivity(service, clock);
    scratch = mkdtempSync(join(tmpdir(), 'cli-audit-'));
    env = { SERVICE_URL: service.url, ADMIN_TOKEN: TEST_ADMIN_TOKEN, DATA_DIR: join(scratch, 'no-data-here') };
  });
  afterAll(async () => {
    await service?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const succeeded = (run: CliRun): string => {
    expect({ code: run.code, stderr: stderrBesidesProgress(run.stderr) }).toEqual({ code: 0, stderr: '' });
    return run.stdout;
  };

  it('audit wallet streams the JSON lines as the service sends them', async () => {
    const partnerId = activity.partner.partnerId;
    const run = await runCli(['audit', 'wallet', partnerId, '--environment', 'sandbox', '--format', 'jsonl'], env);
    const direct = await service.admin('GET', `/audit/wallets/${partnerId}/sandbox?format=jsonl`);
    expect(succeeded(run)).toBe(direct.text);
    expect(jsonLines(run.stdout)).toHaveLength(8);
  });

  it('audit wallet --format csv with a period prints the CSV of those days', async () => {
    const run = await runCli(
      [
        'audit',
        'wallet',
        activity.partner.partnerId,
        '--environment',
        'sandbox',
        '--from',
        STATEMENT_DAY,
        '--to',
        STATEMENT_DAY,
        '--format',
        'csv',
      ],
      env,
    );
    const rows = csvRows(succeeded(run));
    expect(rows[0][0]).toBe('revision');
    expect(rows).toHaveLength(1 + 5);
  });

  it('audit statement prints one JSON object that adds up', async () => {
    const run = await runCli(
      ['audit', 'statement', activity.partner.partnerId, '--environment', 'sandbox', '--date', STATEMENT_DAY],
      env,
    );
    const output = succeeded(run);
    expect(output.trimEnd()).not.toContain('\n');
    expect(JSON.parse(output)).toMatchObject({ opening_balance: '900.00', closing_balance: '920.00', adds_up: true });
  });

  it('audit order prints the whole history of an order as one JSON object', async () => {
    const run = await runCli(['audit', 'order', activity.failed], env);
    const output = succeeded(run);
    expect(output.trimEnd()).not.toContain('\n');
    expect((JSON.parse(output).events as { event_type: string }[]).map((event) => event.event_type)).toEqual([
      'WalletDebited',
      'TransactionInitiated',
      'TransactionFailed',
      'WalletRefunded',
    ]);
  });

  it('audit wallet for an unknown partner exits 1 with the error on stderr and nothing on stdout', async () => {
    const run = await runCli(['audit', 'wallet', 'p_nobody', '--environment', 'sandbox', '--format', 'csv'], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toMatchObject({ error: 'not_found' });
  });

  it('audit report prints the period as one JSON object, and --format html as a page the service serves with a strict policy', async () => {
    const args = [
      'audit',
      'report',
      activity.partner.partnerId,
      '--environment',
      'sandbox',
      '--from',
      '2026-03-09',
      '--to',
      '2026-03-11',
    ];
    const json = JSON.parse(succeeded(await runCli(args, env)));
    expect(json).toMatchObject({ opening_balance: '0.00', closing_balance: '900.00', adds_up: true });
    const page = succeeded(await runCli([...args, '--format', 'html'], env));
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(page).not.toContain('<script');
    const served = await service.admin(
      'GET',
      `/audit/reports/${activity.partner.partnerId}/sandbox?from=2026-03-09&to=2026-03-11&format=html`,
    );
    expect(served.text).toBe(page);
    expect(served.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(served.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect((await runCli([...args, '--format', 'pdf'], env)).code).toBe(2);
  });

  it("the service answers audit report as NDJSON progress over the wallet's events and then the report, when asked", async () => {
    const path = `/v1/admin/audit/reports/${activity.partner.partnerId}/sandbox?from=2026-03-09&to=2026-03-11`;
    const plain = await service.admin('GET', path.slice('/v1/admin'.length));
    const answer = await fetch(`${service.url}${path}`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, accept: 'application/x-ndjson' },
    });
    expect(answer.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await answer.text())
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { progress?: { step: string; done: number; total: number }; result?: unknown },
      );
    expect(lines[0].progress).toMatchObject({ step: 'audit report' });
    expect(lines[0].progress?.done).toBeGreaterThan(0);
    expect(lines[0].progress?.done).toBeLessThanOrEqual(lines[0].progress?.total ?? 0);
    expect(lines[lines.length - 1]).toEqual({ result: { status: 200, body: plain.body } });
  });

  it('audit report --format html shows the totals, each day and a chart of them in Chromium', async () => {
    if (!browserAvailable('the statement report page test')) return;
    const page = succeeded(
      await runCli(
        [
          'audit',
          'report',
          activity.partner.partnerId,
          '--environment',
          'sandbox',
          '--from',
          '2026-03-09',
          '--to',
          '2026-03-11',
          '--format',
          'html',
        ],
        env,
      ),
    );
    const browser = await launchBrowser();
    try {
      const tab = await browser.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(error.message));
      await tab.setContent(page);
      expect(await tab.title()).toBe(
        `Statement of Audit Partner (${activity.partner.partnerId}), sandbox, 2026-03-09 to 2026-03-11`,
      );
      expect(await tab.locator('#totals').innerText()).toMatch(
        /Opening balance\s+0\.00[\s\S]*Debits \(5\)\s+400\.00[\s\S]*Refunds \(1\)\s+50\.00[\s\S]*Credits \(2\)\s+1250\.00[\s\S]*Closing balance\s+900\.00/,
      );
      expect(await tab.locator('#verdict').innerText()).toContain('Every day adds up');
      expect(await tab.locator('#partial').innerText()).toBe(
        '2026-03-11 is today (UTC): its figures may still change.',
      );
      const rows = await tab.locator('#days tbody tr').allInnerTexts();
      expect(rows.map((row) => row.split('\t'))).toEqual([
        ['2026-03-09', '0.00', '100.00', '1', '0.00', '0', '1000.00', '900.00', 'yes'],
        ['2026-03-10', '900.00', '280.00', '3', '50.00', '1', '250.00', '920.00', 'yes'],
        ['2026-03-11', '920.00', '20.00', '1', '0.00', '0', '0.00', '900.00', 'yes'],
      ]);
      // One point of the balance line and one debit bar per day, the line higher where the balance is higher.
      const points = (await tab.locator('#chart polyline').getAttribute('points'))!
        .split(' ')
        .map((point) => Number(point.split(',')[1]));
      expect(points).toHaveLength(3);
      expect(points[1]).toBeLessThan(points[0]);
      expect(points[2]).toBe(points[0]);
      expect(await tab.locator('#chart rect.debit').count()).toBe(3);
      const box = await tab.locator('#chart').boundingBox();
      expect(box!.width).toBeGreaterThan(400);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('audit wallet without --format is a usage error', async () => {
    const run = await runCli(['audit', 'wallet', activity.partner.partnerId, '--environment', 'sandbox'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--format');
  });
});
