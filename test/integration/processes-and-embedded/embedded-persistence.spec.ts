import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../support/manual-clock';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';

/** Every regular file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

/** The files under `dir` whose bytes contain `needle` (as UTF-8). */
function filesContaining(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  return filesUnder(dir).filter((file) => readFileSync(file).includes(bytes));
}

describe('the embedded store keeps its data on disk', () => {
  const PARTNER_NAME = 'Persistence Check Ltd 7f3a9c';
  let dataDir: string;
  let service: TestService | null = null;
  const clock = new ManualClock(new Date('2025-03-01T09:00:00.000Z'));

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-persist-'));
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  let partnerId: string;
  let sandboxKey: string;
  let liveKey: string;
  let orderId: string;

  it('a partner, its keys, a funded live wallet and a settled topup survive a restart', async () => {
    service = await TestService.start({ store: 'embedded', dataDir, clock });
    ({ partnerId, sandboxKey } = await service.createPartner('IN', PARTNER_NAME));
    liveKey = (await service.admin('POST', `/partners/${partnerId}/kyc`, { status: 'approved' })).body.live_api_key;
    await service.admin('POST', `/partners/${partnerId}/wallet-credits`, {
      environment: 'live',
      amount: '500.00',
      reference: 'wire 1',
    });
    const placed = await service.topup(
      sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 },
      'persist-topup-0001',
    );
    expect(placed.body).toMatchObject({ status: 'PENDING', balance_after: '900.00' });
    orderId = placed.body.order_id;
    await service.settle();
    await service.close();
    service = null;

    service = await TestService.start({ store: 'embedded', dataDir, clock });
    expect((await service.partner('GET', '/balance', sandboxKey)).body).toMatchObject({
      available: '900.00',
      currency: 'INR',
      environment: 'sandbox',
    });
    expect((await service.partner('GET', '/balance', liveKey)).body).toMatchObject({
      available: '500.00',
      environment: 'live',
    });
    expect((await service.partner('GET', `/transactions/${orderId}`, sandboxKey)).body).toMatchObject({
      order_id: orderId,
      status: 'SUCCESS',
    });
    expect((await service.admin('GET', `/partners/${partnerId}`)).body).toMatchObject({
      name: PARTNER_NAME,
      kyc_status: 'approved',
    });
    expect((await service.verify()).body).toMatchObject({ ok: true });
  });

  it('after the restart the wallet keeps working: a second topup debits the remembered balance', async () => {
    if (!service) throw new Error('the service did not restart');
    const placed = await service.topup(
      sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0002'), amount: 50 },
      'persist-topup-0002',
    );
    expect(placed.body.balance_after).toBe('850.00');
    await service.settle();
    expect((await service.partner('GET', '/balance', sandboxKey)).body.available).toBe('900.00');
    // The first order's idempotency key is remembered too: a replay moves no money.
    const replay = await service.topup(
      sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 },
      'persist-topup-0001',
    );
    expect(replay.headers.get('idempotent-replay')).toBe('true');
    expect(replay.body.order_id).toBe(orderId);
    expect((await service.partner('GET', '/balance', sandboxKey)).body.available).toBe('900.00');
    await service.close();
    service = null;
  });

  it('no file in the data folder holds an API key in plain text', () => {
    // The scan can see stored text: the partner's name is found, so absence of the keys means something.
    expect(filesContaining(dataDir, PARTNER_NAME).length).toBeGreaterThan(0);
    for (const apiKey of [sandboxKey, liveKey]) {
      expect(filesContaining(dataDir, apiKey)).toEqual([]);
      // Nor the random part alone, in case a prefix were stored apart from it.
      expect(filesContaining(dataDir, apiKey.slice('svc_xxxx_'.length))).toEqual([]);
    }
  });
});
