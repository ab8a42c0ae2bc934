import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabase } from '../../../src/infrastructure/sql/postgres-database';
import { isProgressLine } from '../../../src/interface/cli/progress-reporter';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { runCli } from '../../support/run-cli';
import { RecordingReceiver } from '../../support/recording-receiver';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const MOVE_TIMEOUT_MS = 120_000;

/** The webhook receiver listens on 127.0.0.1: a private deployment's opt-in. */
const PRIVATE_HOOKS = { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' };

const storeEnv = (database: TestDatabase): Record<string, string> => ({
  EVENT_STORE: 'postgres',
  DATABASE_URL: database.connectionString,
});

interface Line {
  type: string;
  data: Record<string, unknown>;
}

const linesOf = (stdout: string): Line[] =>
  stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);

async function exportsRecordedIn(database: TestDatabase): Promise<Record<string, unknown>[]> {
  const db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 1 });
  try {
    return await db.query(
      `SELECT operator_name, operator_id, role, subject, detail FROM back_office_actions
        WHERE action = 'history_exported' ORDER BY action_id`,
    );
  } finally {
    await db.close();
  }
}

const SECRET_FIELDS: Record<string, string> = {
  ApiKeyIssued: 'keyHash',
  ScopedKeyCreated: 'keyHash',
  OperatorCreated: 'tokenHash',
  WebhookSecretRotated: 'sealedSecret',
};

describe('data export: recorded, and --without-secrets', () => {
  let source: TestDatabase;
  let target: TestDatabase;
  let scratch: string;
  let service: TestService | null = null;
  let partner: { partnerId: string; sandboxKey: string };
  let balanceBefore: unknown;
  let receiver: RecordingReceiver;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'data-export-'));
    receiver = await RecordingReceiver.start();
    [source, target] = await Promise.all([createTestDatabase('export_source'), createTestDatabase('export_target')]);
    service = await TestService.start({ store: 'postgres', databaseUrl: source.connectionString, env: PRIVATE_HOOKS });
    partner = await service.createPartner('IN', 'Exported Partner');
    const configured = await service.admin('PATCH', `/partners/${partner.partnerId}/settings`, {
      environment: 'sandbox',
      webhook_url: receiver.url,
    });
    expect(configured.status).toBe(200);
    const restricted = await service.partner('POST', '/keys', partner.sandboxKey, {
      label: 'agent',
      scope: 'read_only',
    });
    expect(restricted.status).toBe(201);
    await service.createOperator('export.checker', 'operator');
    await service.settle();
    balanceBefore = (await service.partner('GET', '/balance', partner.sandboxKey)).body;
    await service.close();
    service = null;
  }, SERVICE_START_TIMEOUT_MS);

  afterAll(async () => {
    await service?.close();
    await receiver?.stop();
    await Promise.all([source?.drop(), target?.drop()]);
    rmSync(scratch, { recursive: true, force: true });
  });

  let whole: Line[];
  let withheld: string;

  it(
    'records each export in the back-office action log: who, when, how many events, whether secrets were left out',
    async () => {
      const exported = await runCli(['data', 'export'], storeEnv(source));
      expect(exported.code).toBe(0);
      whole = linesOf(exported.stdout);
      const without = await runCli(['data', 'export', '--without-secrets'], storeEnv(source));
      expect(without.code).toBe(0);
      withheld = without.stdout;
      const records = await exportsRecordedIn(source);
      const exporter = expect.stringMatching(/^cli:.+@.+$/);
      expect(records).toEqual([
        {
          operator_name: exporter,
          operator_id: null,
          role: 'owner',
          subject: 'event-log',
          detail: { events: whole.length, without_secrets: false },
        },
        {
          operator_name: exporter,
          operator_id: null,
          role: 'owner',
          subject: 'event-log',
          detail: { events: whole.length, without_secrets: true },
        },
      ]);
    },
    MOVE_TIMEOUT_MS,
  );

  it('--without-secrets leaves out every key hash, operator token hash and sealed webhook secret, and nothing else', () => {
    const lines = linesOf(withheld);
    expect(lines).toHaveLength(whole.length);
    const secrets = whole.flatMap((line) => {
      const field = SECRET_FIELDS[line.type];
      return field ? [String(line.data[field])] : [];
    });
    expect(secrets).toHaveLength(4);
    for (const secret of secrets) expect(withheld).not.toContain(secret);
    lines.forEach((line, index) => {
      const field = SECRET_FIELDS[line.type];
      if (!field) {
        expect(line).toEqual(whole[index]);
        return;
      }
      expect(line.data[field]).toMatch(/^withheld:/);
      expect({ ...line.data, [field]: null }).toEqual({ ...whole[index].data, [field]: null });
    });
  });

  it(
    'an import of it says what was withheld; old keys are refused until regenerated, webhooks are not signed until the secret is rotated, and the data reads as before',
    async () => {
      const file = join(scratch, 'withheld.jsonl');
      writeFileSync(file, withheld);
      const run = await runCli(['data', 'import', file], storeEnv(target));
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        imported_events: whole.length,
        withheld: { api_key_hashes: 2, operator_token_hashes: 1, webhook_secrets: 1 },
      });
      const notes = run.stderr.split('\n').filter((line) => line !== '' && !isProgressLine(line));
      expect(notes).toEqual([expect.stringContaining('--without-secrets')]);

      service = await TestService.start({
        store: 'postgres',
        databaseUrl: target.connectionString,
        env: PRIVATE_HOOKS,
      });
      const old = await service.partner('GET', '/balance', partner.sandboxKey);
      expect({ status: old.status, body: old.body }).toEqual({
        status: 401,
        body: { error: 'invalid_api_key', detail: expect.any(String) },
      });
      const regenerated = await service.admin('POST', `/partners/${partner.partnerId}/keys/regenerate`, {
        environment: 'sandbox',
      });
      expect(regenerated.status).toBe(200);
      const balance = await service.partner('GET', '/balance', regenerated.body.api_key);
      expect({ status: balance.status, body: balance.body }).toEqual({ status: 200, body: balanceBefore });
      expect((await service.verify()).status).toBe(200);

      // A withheld webhook secret signs nothing: the delivery fails without being sent, until the secret is rotated.
      const placed = await service.topup(
        regenerated.body.api_key,
        { operator_id: 101, phone: SANDBOX_PHONES.IN('0007'), amount: 100 },
        'after-withheld-import',
      );
      expect(placed.status).toBe(200);
      await service.settle();
      const [delivery] = (await service.admin('GET', `/webhook-deliveries?partner_id=${partner.partnerId}`)).body
        .deliveries;
      expect(delivery.attempts).toEqual([expect.objectContaining({ error: 'no webhook secret is configured' })]);
      expect(receiver.received).toHaveLength(0);
      const rotated = await service.admin('PATCH', `/partners/${partner.partnerId}/settings`, {
        environment: 'sandbox',
        rotate_webhook_secret: true,
      });
      expect(rotated.status).toBe(200);
      expect((await service.admin('POST', `/webhook-deliveries/${delivery.delivery_id}/resend`)).status).toBe(202);
      await service.settle();
      expect(receiver.received).toHaveLength(1);
    },
    MOVE_TIMEOUT_MS,
  );
});
