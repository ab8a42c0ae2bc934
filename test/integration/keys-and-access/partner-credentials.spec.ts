import { HttpAnswer, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';

const expectError = (answer: HttpAnswer, status: number, code: string): void => {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status,
    body: { error: code, detail: expect.any(String) },
  });
};

const LATER = '2099-01-01T00:00:00Z';

describe("a partner's credentials stay with the partner", () => {
  let service: TestService;
  let operator: string;
  let owner: string;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
    operator = await service.operatorToken('ops.credentials', 'operator');
    owner = await service.operatorToken('owner.credentials', 'owner');
  });
  afterAll(async () => {
    await service.close();
  });

  describe('an operator', () => {
    it('approves KYC without receiving the live key; the partner claims it once with its sandbox key', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN', 'Claimant');
      expectError(await service.partner('POST', '/live-key', sandboxKey), 409, 'invalid_state');

      const approved = await service.adminAs(operator, 'POST', `/partners/${partnerId}/kyc`, { status: 'approved' });
      expect(approved.status).toBe(200);
      expect(approved.body).toEqual({ partner_id: partnerId, kyc_status: 'approved' });

      const restricted = await service.partner('POST', '/keys', sandboxKey, { label: 'agent', scope: 'read_only' });
      expectError(await service.partner('POST', '/live-key', restricted.body.api_key), 403, 'scope_forbidden');

      const claimed = await service.partner('POST', '/live-key', sandboxKey);
      expect(claimed.status).toBe(201);
      expect(claimed.body).toEqual({
        partner_id: partnerId,
        environment: 'live',
        key_id: expect.any(String),
        api_key: expect.stringMatching(/^svc_live_/),
      });
      const liveKey = claimed.body.api_key as string;
      expect((await service.partner('GET', '/balance', liveKey)).body).toMatchObject({ environment: 'live' });
      expectError(await service.partner('POST', '/live-key', sandboxKey), 409, 'invalid_state');
      expectError(await service.partner('POST', '/live-key', liveKey), 409, 'invalid_state');

      const sandboxKeyId = (await service.partner('GET', '/keys', sandboxKey)).body.main_key.key_id;
      expect((await service.partner('GET', '/keys', liveKey)).body.main_key).toMatchObject({
        key_id: claimed.body.key_id,
        created_by: { type: 'partner_key', id: sandboxKeyId },
      });
    });

    it('onboards a partner without seeing its sandbox key, which an owner then issues', async () => {
      const created = await service.adminAs(operator, 'POST', '/partners', { name: 'Onboarded', corridor: 'IN' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ partner_id: expect.stringMatching(/^ptr_/), sandbox_api_key: null });
      const partnerId = created.body.partner_id as string;
      expectError(
        await service.adminAs(operator, 'POST', `/partners/${partnerId}/keys/regenerate`, { environment: 'sandbox' }),
        403,
        'role_forbidden',
      );
      const issued = await service.adminAs(owner, 'POST', `/partners/${partnerId}/keys/regenerate`, {
        environment: 'sandbox',
      });
      expect(issued.status).toBe(200);
      const sandboxKey = issued.body.api_key as string;
      expect(sandboxKey).toMatch(/^svc_test_/);
      expect((await service.partner('GET', '/balance', sandboxKey)).body).toMatchObject({ environment: 'sandbox' });
      // Approved by an operator, the live key is the partner's to claim, with the key only an owner and it have seen.
      await service.adminAs(operator, 'POST', `/partners/${partnerId}/kyc`, { status: 'approved' });
      expect((await service.partner('POST', '/live-key', sandboxKey)).status).toBe(201);
    });

    it('may neither create nor regenerate a key, nor rotate the webhook secret, nor create it with a first URL', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN', 'Guarded');
      const key = { environment: 'sandbox', label: 'x', scope: 'read_only', expires_at: LATER };
      expectError(await service.adminAs(operator, 'POST', `/partners/${partnerId}/keys`, key), 403, 'role_forbidden');
      expectError(
        await service.adminAs(operator, 'POST', `/partners/${partnerId}/keys/regenerate`, { environment: 'sandbox' }),
        403,
        'role_forbidden',
      );
      const settings = `/partners/${partnerId}/settings`;
      expectError(
        await service.adminAs(operator, 'PATCH', settings, { environment: 'sandbox', rotate_webhook_secret: true }),
        403,
        'role_forbidden',
      );
      expectError(
        await service.adminAs(operator, 'PATCH', settings, {
          environment: 'sandbox',
          webhook_url: 'https://hooks.example.com/in',
        }),
        403,
        'role_forbidden',
      );
      expect((await service.admin('GET', `${settings}?environment=sandbox`)).body).toMatchObject({
        webhook_url: null,
        webhook_secret_set: false,
      });
      expect((await service.partner('GET', '/balance', sandboxKey)).status).toBe(200);

      // Once the partner has a secret, the operator may change the URL: no secret is created or shown.
      const own = await service.partner('PATCH', '/settings', sandboxKey, {
        webhook_url: 'https://hooks.example.com/a',
      });
      expect(own.body.webhook_secret).toMatch(/^whsec_/);
      const moved = await service.adminAs(operator, 'PATCH', settings, {
        environment: 'sandbox',
        webhook_url: 'https://hooks.example.com/b',
      });
      expect(moved.status).toBe(200);
      expect(moved.body.webhook_secret).toBeUndefined();
    });
  });

  describe('an owner, and the break-glass token', () => {
    it('receives the live key at the first approval, as before', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN', 'Owner Approved');
      const approved = await service.adminAs(owner, 'POST', `/partners/${partnerId}/kyc`, { status: 'approved' });
      expect(approved.body).toEqual({ partner_id: partnerId, live_api_key: expect.stringMatching(/^svc_live_/) });
      expectError(await service.partner('POST', '/live-key', sandboxKey), 409, 'invalid_state');
    });

    it('creates a key only with an expiry, and a transact key only with both caps; the partner sees who made it', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN', 'Owner Keys');
      const keys = `/partners/${partnerId}/keys`;
      for (const token of [owner, TEST_ADMIN_TOKEN]) {
        expectError(
          await service.adminAs(token, 'POST', keys, { environment: 'sandbox', label: 'x', scope: 'read_only' }),
          400,
          'validation_failed',
        );
        const uncapped = { environment: 'sandbox', label: 'x', scope: 'transact', expires_at: LATER };
        expectError(await service.adminAs(token, 'POST', keys, uncapped), 400, 'validation_failed');
        expectError(
          await service.adminAs(token, 'POST', keys, { ...uncapped, per_order_max: '100.00' }),
          400,
          'validation_failed',
        );
      }
      const created = await service.adminAs(owner, 'POST', keys, {
        environment: 'sandbox',
        label: 'support desk',
        scope: 'transact',
        per_order_max: '100.00',
        daily_max: '500.00',
        expires_at: LATER,
      });
      expect(created.status).toBe(201);
      const listed = (await service.partner('GET', '/keys', sandboxKey)).body.keys;
      expect(listed).toEqual([
        expect.objectContaining({
          key_id: created.body.key_id,
          created_by: { type: 'operator', id: 'owner.credentials' },
          per_order_max: '100.00',
          daily_max: '500.00',
          expires_at: '2099-01-01T00:00:00.000Z',
        }),
      ]);
      // The partner's own keys need neither.
      expect((await service.partner('POST', '/keys', sandboxKey, { label: 'mine', scope: 'transact' })).status).toBe(
        201,
      );
    });
  });

  describe("the back office's rate limit is the ceiling of the partner's own", () => {
    it('lets the partner lower it and raise it back to the ceiling, never past it', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN', 'Throttled');
      const throttled = await service.adminAs(operator, 'PATCH', `/partners/${partnerId}/settings`, {
        environment: 'sandbox',
        rate_limit: 5,
      });
      expect(throttled.body).toMatchObject({ rate_limit_per_minute: 5, rate_limit_ceiling_per_minute: 5 });
      const raised = await service.partner('PATCH', '/settings', sandboxKey, { rate_limit_per_minute: 600 });
      expectError(raised, 400, 'validation_failed');
      expect(raised.body.detail).toContain('at most 5');
      expect(
        (await service.partner('PATCH', '/settings', sandboxKey, { rate_limit_per_minute: 3 })).body,
      ).toMatchObject({ rate_limit_per_minute: 3, rate_limit_ceiling_per_minute: 5 });
      expect(
        (await service.partner('PATCH', '/settings', sandboxKey, { rate_limit_per_minute: 5 })).body,
      ).toMatchObject({ rate_limit_per_minute: 5 });
      expect((await service.partner('GET', '/settings', sandboxKey)).body).toMatchObject({
        rate_limit_per_minute: 5,
        rate_limit_ceiling_per_minute: 5,
      });
    });

    it('has default ceilings of 120 for sandbox keys and 600 for live keys, and 60 a minute as the default limit', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN', 'Defaults');
      const liveKey = (await service.admin('POST', `/partners/${partnerId}/kyc`, { status: 'approved' })).body
        .live_api_key as string;
      expect((await service.partner('GET', '/settings', sandboxKey)).body).toMatchObject({
        rate_limit_per_minute: 60,
        rate_limit_ceiling_per_minute: 120,
      });
      expectError(
        await service.partner('PATCH', '/settings', sandboxKey, { rate_limit_per_minute: 121 }),
        400,
        'validation_failed',
      );
      expect((await service.partner('PATCH', '/settings', sandboxKey, { rate_limit_per_minute: 120 })).status).toBe(
        200,
      );
      expect((await service.partner('GET', '/settings', liveKey)).body).toMatchObject({
        rate_limit_per_minute: 60,
        rate_limit_ceiling_per_minute: 600,
      });
      expectError(
        await service.partner('PATCH', '/settings', liveKey, { rate_limit_per_minute: 601 }),
        400,
        'validation_failed',
      );
      expectError(
        await service.partner('PATCH', '/settings', liveKey, { rate_limit_per_minute: 100_001 }),
        400,
        'validation_failed',
      );
    });
  });
});
