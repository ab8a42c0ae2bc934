import { HmacKeyHasher } from '../../../src/infrastructure/security/hmac-key-hasher';
import { HttpAnswer, STORES, TEST_ADMIN_TOKEN, TEST_KEY_SECRET, TestService } from '../../support/test-service';

const SANDBOX_KEY = /^svc_test_[A-Za-z0-9_-]{32}$/;
const LIVE_KEY = /^svc_live_[A-Za-z0-9_-]{32}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const DECIMAL = /^\d+\.\d+$/;

const BALANCE_FIELDS = ['available', 'corridor', 'currency', 'environment', 'updated_at'];
const OPERATOR_FIELDS = ['api_operator_id', 'category', 'id', 'local_currency', 'max_amount', 'min_amount', 'name'];
const ENVELOPE_FIELDS = ['corridor', 'count', 'currency', 'operators'];

const sorted = (value: object): string[] => Object.keys(value).sort();

/** The interface's Error body: exactly `error` and `detail`. */
const expectError = (answer: HttpAnswer, status: number, code: string): void => {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status,
    body: { error: code, detail: expect.any(String) },
  });
};

describe.each(STORES)('partners, API keys and wallets (%s store)', (store) => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({ store });
  });
  afterAll(async () => {
    await service.close();
  });

  const balance = (key: string) => service.partner('GET', '/balance', key);
  const approve = (partnerId: string) => service.admin('POST', `/partners/${partnerId}/kyc`, { status: 'approved' });
  const suspend = (partnerId: string) => service.admin('POST', `/partners/${partnerId}/kyc`, { status: 'suspended' });
  const regenerate = (partnerId: string, environment: 'sandbox' | 'live') =>
    service.admin('POST', `/partners/${partnerId}/keys/regenerate`, { environment });

  async function livePartner(
    corridor: 'IN' | 'BD' | 'SG' = 'IN',
  ): Promise<{ partnerId: string; sandboxKey: string; liveKey: string }> {
    const created = await service.createPartner(corridor);
    const approved = await approve(created.partnerId);
    expect(approved.status).toBe(200);
    return { ...created, liveKey: approved.body.live_api_key };
  }

  describe('onboarding', () => {
    it('a new partner gets its id and a sandbox key of the documented format, shown once, and nothing else', async () => {
      const answer = await service.admin('POST', '/partners', { name: 'Acme Mobile', corridor: 'IN' });
      expect(answer.status).toBe(201);
      expect(sorted(answer.body)).toEqual(['partner_id', 'sandbox_api_key']);
      expect(answer.body.sandbox_api_key).toMatch(SANDBOX_KEY);
    });

    it('every partner gets a different sandbox key', async () => {
      const first = await service.createPartner('IN');
      const second = await service.createPartner('IN');
      expect(first.sandboxKey).not.toBe(second.sandboxKey);
      expect(first.partnerId).not.toBe(second.partnerId);
    });

    it.each([
      ['IN', 'INR'],
      ['BD', 'BDT'],
      ['SG', 'SGD'],
    ])('a new sandbox partner in %s reads a test balance of 1000.00 %s', async (corridor, currency) => {
      const { sandboxKey } = await service.createPartner(corridor as 'IN' | 'BD' | 'SG');
      const answer = await balance(sandboxKey);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        available: '1000.00',
        currency,
        corridor,
        environment: 'sandbox',
        updated_at: expect.stringMatching(ISO_DATE_TIME),
      });
    });

    it('the Balance resource has exactly the documented fields', async () => {
      const { sandboxKey } = await service.createPartner('BD');
      expect(sorted((await balance(sandboxKey)).body)).toEqual(BALANCE_FIELDS);
    });
  });

  describe('the operator list', () => {
    it.each([
      ['IN', 'INR'],
      ['BD', 'BDT'],
      ['SG', 'SGD'],
    ])(
      'lists the mobile operators of the %s corridor in the documented envelope and Operator fields',
      async (corridor, currency) => {
        const { sandboxKey } = await service.createPartner(corridor as 'IN' | 'BD' | 'SG');
        const answer = await service.partner('GET', '/operators', sandboxKey);
        expect(answer.status).toBe(200);
        expect(sorted(answer.body)).toEqual(ENVELOPE_FIELDS);
        expect(answer.body).toMatchObject({ corridor, currency });
        expect(answer.body.count).toBe(answer.body.operators.length);
        expect(answer.body.count).toBeGreaterThan(0);
        for (const operator of answer.body.operators) {
          expect(sorted(operator)).toEqual(OPERATOR_FIELDS);
          expect(Number.isInteger(operator.id)).toBe(true);
          expect(operator).toMatchObject({
            api_operator_id: expect.any(String),
            name: expect.any(String),
            category: 'MOBILE_PREPAID',
            min_amount: expect.stringMatching(DECIMAL),
            max_amount: expect.stringMatching(DECIMAL),
            local_currency: currency,
          });
        }
      },
    );
  });

  describe('live keys and KYC', () => {
    it('no live key exists before KYC approval: a new partner has none and none can be regenerated', async () => {
      const { partnerId } = await service.createPartner('IN');
      const refused = await regenerate(partnerId, 'live');
      expectError(refused, 409, 'invalid_state');
    });

    it('KYC approval issues a live key that reads the partner’s own live wallet, empty at first', async () => {
      const { partnerId } = await service.createPartner('SG');
      const approved = await approve(partnerId);
      expect(approved.status).toBe(200);
      expect(approved.body).toEqual({ partner_id: partnerId, live_api_key: expect.stringMatching(LIVE_KEY) });
      const answer = await balance(approved.body.live_api_key);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        available: '0.00',
        currency: 'SGD',
        corridor: 'SG',
        environment: 'live',
        updated_at: expect.stringMatching(ISO_DATE_TIME),
      });
    });

    it('the live and sandbox wallets are separate', async () => {
      const { sandboxKey, liveKey } = await livePartner('IN');
      expect((await balance(sandboxKey)).body).toMatchObject({ available: '1000.00', environment: 'sandbox' });
      expect((await balance(liveKey)).body).toMatchObject({ available: '0.00', environment: 'live' });
    });

    it('a suspended partner’s live key gets 403 kyc_required and works again after re-approval, which issues no new key', async () => {
      const { partnerId, sandboxKey, liveKey } = await livePartner('BD');
      expect((await suspend(partnerId)).body).toEqual({ partner_id: partnerId, kyc_status: 'suspended' });
      expectError(await balance(liveKey), 403, 'kyc_required');
      expect((await balance(sandboxKey)).status).toBe(200);

      const reapproved = await approve(partnerId);
      expect(reapproved.status).toBe(200);
      expect(reapproved.body).toEqual({ partner_id: partnerId, kyc_status: 'approved' });
      expect(reapproved.text).not.toContain('svc_');
      expect((await balance(liveKey)).body).toMatchObject({ environment: 'live', currency: 'BDT' });
    });

    it('approving an approved partner again issues no second live key', async () => {
      const { partnerId, liveKey } = await livePartner('IN');
      const again = await approve(partnerId);
      expect(again.body).toEqual({ partner_id: partnerId, kyc_status: 'approved' });
      expect((await balance(liveKey)).status).toBe(200);
    });
  });

  describe('regenerating a key', () => {
    it('a regenerated sandbox key replaces the old one at once, on the same wallet', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN');
      const regenerated = await regenerate(partnerId, 'sandbox');
      expect(regenerated.status).toBe(200);
      expect(regenerated.body).toEqual({
        partner_id: partnerId,
        environment: 'sandbox',
        api_key: expect.stringMatching(SANDBOX_KEY),
        revoked_restricted_keys: [],
        kept_restricted_keys: [],
      });
      expect(regenerated.body.api_key).not.toBe(sandboxKey);

      expectError(await balance(sandboxKey), 401, 'invalid_api_key');
      expect((await balance(regenerated.body.api_key)).body).toMatchObject({
        available: '1000.00',
        environment: 'sandbox',
      });
    });

    it('a regenerated live key replaces the old one at once and leaves the sandbox key working', async () => {
      const { partnerId, sandboxKey, liveKey } = await livePartner('SG');
      const regenerated = await regenerate(partnerId, 'live');
      expect(regenerated.body.api_key).toMatch(LIVE_KEY);
      expectError(await balance(liveKey), 401, 'invalid_api_key');
      expect((await balance(regenerated.body.api_key)).body).toMatchObject({ environment: 'live' });
      expect((await balance(sandboxKey)).status).toBe(200);
    });
  });

  describe('refused keys', () => {
    let revokedKey: string;
    beforeAll(async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN');
      revokedKey = sandboxKey;
      expect((await regenerate(partnerId, 'sandbox')).status).toBe(200);
    });

    const cases: [string, () => Record<string, string>][] = [
      ['no Authorization header', () => ({})],
      ['a Basic credential', () => ({ authorization: 'Basic x' })],
      ['a bearer token that is not a key', () => ({ authorization: 'Bearer not-a-key' })],
      ['a key one character short', () => ({ authorization: `Bearer svc_test_${'A'.repeat(31)}` })],
      ['a key with an unknown prefix', () => ({ authorization: `Bearer svc_prod_${'A'.repeat(32)}` })],
      ['a key with characters outside base64url', () => ({ authorization: `Bearer svc_test_${'A'.repeat(31)}+` })],
      [
        'a well-formed sandbox key that was never issued',
        () => ({ authorization: `Bearer svc_test_${'A'.repeat(32)}` }),
      ],
      ['a well-formed live key that was never issued', () => ({ authorization: `Bearer svc_live_${'b'.repeat(32)}` })],
      ['a revoked key', () => ({ authorization: `Bearer ${revokedKey}` })],
      [
        'a sandbox key presented with the live prefix',
        () => ({ authorization: `Bearer ${revokedKey.replace('svc_test_', 'svc_live_')}` }),
      ],
    ];

    it.each(cases)('%s gets 401 invalid_api_key with the Error body', async (_what, headers) => {
      const answer = await service.request('GET', '/v1/partner/balance', { headers: headers() });
      expectError(answer, 401, 'invalid_api_key');
    });

    it('a refused key gets the same answer on every partner route', async () => {
      for (const path of ['/operators', '/transactions/ord_x']) {
        expectError(await service.partner('GET', path, revokedKey), 401, 'invalid_api_key');
      }
      const topup = await service.topup(
        revokedKey,
        { operator_id: 101, phone: '+919876540001', amount: 100 },
        'revoked-key-01',
      );
      expectError(topup, 401, 'invalid_api_key');
    });
  });

  describe('funding a live wallet', () => {
    it('an operator’s credit is added to the live wallet and the partner’s balance shows it', async () => {
      const { partnerId, liveKey } = await livePartner('IN');
      const first = await service.admin('POST', `/partners/${partnerId}/wallet-credits`, {
        environment: 'live',
        amount: '2500.00',
        reference: 'wire 0001',
      });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        partner_id: partnerId,
        environment: 'live',
        amount: '2500.00',
        available: '2500.00',
        currency: 'INR',
        reference: 'wire 0001',
      });
      const second = await service.admin('POST', `/partners/${partnerId}/wallet-credits`, {
        environment: 'live',
        amount: '0.50',
        reference: 'wire 0002',
      });
      expect(second.body.available).toBe('2500.50');
      expect((await balance(liveKey)).body).toMatchObject({
        available: '2500.50',
        currency: 'INR',
        environment: 'live',
      });
    });

    it('a live credit leaves the sandbox wallet as it was', async () => {
      const { partnerId, sandboxKey } = await livePartner('BD');
      await service.admin('POST', `/partners/${partnerId}/wallet-credits`, {
        environment: 'live',
        amount: '10',
        reference: 'wire 0003',
      });
      expect((await balance(sandboxKey)).body.available).toBe('1000.00');
    });

    it.each(['0', '-5', '1e3', '0.001', 'ten'])('refuses a credit of "%s" and moves no money', async (amount) => {
      const { partnerId, liveKey } = await livePartner('IN');
      const answer = await service.admin('POST', `/partners/${partnerId}/wallet-credits`, {
        environment: 'live',
        amount,
        reference: 'bad',
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('validation_failed');
      expect((await balance(liveKey)).body.available).toBe('0.00');
    });
  });

  describe('partner show (back office)', () => {
    it('shows the partner, its KYC status and both balances, and never a key or a key hash', async () => {
      const { partnerId, sandboxKey, liveKey } = await livePartner('SG');
      await service.admin('POST', `/partners/${partnerId}/wallet-credits`, {
        environment: 'live',
        amount: '75.25',
        reference: 'wire 0004',
      });
      const answer = await service.admin('GET', `/partners/${partnerId}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        partner_id: partnerId,
        name: 'Test Partner',
        corridor: 'SG',
        kyc_status: 'approved',
        created_at: expect.stringMatching(ISO_DATE_TIME),
        balances: {
          live: { available: '75.25', currency: 'SGD', updated_at: expect.stringMatching(ISO_DATE_TIME) },
          sandbox: { available: '1000.00', currency: 'SGD', updated_at: expect.stringMatching(ISO_DATE_TIME) },
        },
      });
      const hasher = new HmacKeyHasher(TEST_KEY_SECRET);
      for (const secret of [
        sandboxKey,
        liveKey,
        sandboxKey.slice('svc_test_'.length),
        liveKey.slice('svc_live_'.length),
        hasher.hash(sandboxKey),
        hasher.hash(liveKey),
        'svc_',
      ]) {
        expect(answer.text).not.toContain(secret);
      }
    });

    it('a partner still in review shows kyc pending and no live balance', async () => {
      const { partnerId } = await service.createPartner('IN');
      expect((await service.admin('GET', `/partners/${partnerId}`)).body).toMatchObject({
        kyc_status: 'pending',
        balances: { live: null, sandbox: { available: '1000.00' } },
      });
    });

    it('an unknown partner is 404 not_found', async () => {
      expectError(await service.admin('GET', '/partners/ptr_nobody'), 404, 'not_found');
    });
  });

  describe('the back office is closed to others', () => {
    it.each([
      ['a wrong operator token', { authorization: 'Bearer wrong-admin-token-0123456789' }],
      ['a Basic credential', { authorization: `Basic ${Buffer.from(`admin:${TEST_ADMIN_TOKEN}`).toString('base64')}` }],
      ['no token', {}],
    ])('%s gets 401 from the back office', async (_what, headers: Record<string, string>) => {
      const answer = await service.request('POST', '/v1/admin/partners', {
        headers,
        body: { name: 'Intruder', corridor: 'IN' },
      });
      expectError(answer, 401, 'invalid_admin_token');
    });

    it('a partner’s API key gets 401 from the back office', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN');
      expectError(
        await service.request('GET', `/v1/admin/partners/${partnerId}`, { token: sandboxKey }),
        401,
        'invalid_admin_token',
      );
    });

    it('the operator token is not a partner key', async () => {
      expectError(
        await service.request('GET', '/v1/partner/balance', { token: TEST_ADMIN_TOKEN }),
        401,
        'invalid_api_key',
      );
    });
  });

  describe('unknown routes', () => {
    it.each([
      ['GET', '/v1/partner/nothing-here'],
      ['GET', '/v2/partner/balance'],
      ['POST', '/v1/partner/refund'],
      ['GET', '/v1/nothing'],
    ])('%s %s is 404 not_found with the Error body', async (method, path) => {
      const { sandboxKey } = await service.createPartner('IN');
      expectError(await service.request(method, path, { token: sandboxKey }), 404, 'not_found');
    });
  });
});
