import { partnerDecider } from '../../../../src/domain/partner/partner.decider';
import { IssuedKey, PartnerCommand } from '../../../../src/domain/partner/partner.commands';
import {
  ApiKeyIssued,
  ApiKeyRevoked,
  KycStatusChanged,
  PartnerOnboarded,
  ScopedKeyCreated,
  ScopedKeyRevoked,
} from '../../../../src/domain/partner/partner.events';
import { Money } from '../../../../src/domain/money/money';
import { Environment } from '../../../../src/domain/shared/environment';
import { spec } from '../../../support/decider-spec';

const PARTNER = 'ptr_1';
const AT = '2025-01-15T10:00:00.000Z';

const key = (id: string): IssuedKey => ({ keyId: id, keyHash: `hash-of-${id}` });

// Commands
const onboard: PartnerCommand = {
  type: 'OnboardPartner',
  partnerId: PARTNER,
  name: 'Acme Mobile',
  corridor: 'BD',
  sandboxKey: key('key_sbx_1'),
  at: AT,
};
const kyc = (status: 'approved' | 'suspended', candidate = 'key_live_1'): PartnerCommand => ({
  type: 'ChangeKycStatus',
  status,
  candidateLiveKey: key(candidate),
  at: AT,
});
const regenerate = (environment: Environment, newKey: string, keepRestrictedKeys = false): PartnerCommand => ({
  type: 'RegenerateKey',
  environment,
  key: key(newKey),
  keepRestrictedKeys,
  at: AT,
});

// Events
const onboarded: PartnerOnboarded = {
  type: 'PartnerOnboarded',
  data: { partnerId: PARTNER, name: 'Acme Mobile', corridor: 'BD', onboardedAt: AT },
};
const issued = (environment: Environment, keyId: string): ApiKeyIssued => ({
  type: 'ApiKeyIssued',
  data: { partnerId: PARTNER, environment, keyId, keyHash: `hash-of-${keyId}`, issuedAt: AT },
});
const revoked = (environment: Environment, keyId: string): ApiKeyRevoked => ({
  type: 'ApiKeyRevoked',
  data: { partnerId: PARTNER, environment, keyId, reason: 'regenerated', revokedAt: AT },
});
const kycChanged = (status: 'approved' | 'suspended'): KycStatusChanged => ({
  type: 'KycStatusChanged',
  data: { partnerId: PARTNER, status, changedAt: AT },
});

const partner = spec(partnerDecider);
const onboardedPartner = [onboarded, issued('sandbox', 'key_sbx_1')];
const approvedPartner = [...onboardedPartner, kycChanged('approved'), issued('live', 'key_live_1')];

describe('a partner and its API keys', () => {
  describe('onboarding', () => {
    it('onboards the partner in its corridor and issues a sandbox key, and no live key', () => {
      const state = partner.given().when(onboard).then(onboarded, issued('sandbox', 'key_sbx_1'));
      expect(state).toMatchObject({
        partnerId: PARTNER,
        corridor: 'BD',
        kycStatus: 'pending',
        activeKeys: { sandbox: 'key_sbx_1' },
      });
      expect(state.activeKeys.live).toBeUndefined();
    });

    it('records only the keyed hash of the key', () => {
      const [, keyEvent] = partner.given().when(onboard).events();
      expect(keyEvent).toEqual(issued('sandbox', 'key_sbx_1'));
      expect(JSON.stringify(keyEvent)).not.toContain('svc_');
    });

    it('cannot onboard the same partner twice', () => {
      partner
        .given(...onboardedPartner)
        .when(onboard)
        .thenRefused('invalid_state', 'already exists');
    });
  });

  describe('KYC', () => {
    it('the first approval issues the live key', () => {
      const state = partner
        .given(...onboardedPartner)
        .when(kyc('approved'))
        .then(kycChanged('approved'), issued('live', 'key_live_1'));
      expect(state.activeKeys).toEqual({ sandbox: 'key_sbx_1', live: 'key_live_1' });
    });

    it('a suspension issues no key and keeps the live key on record (it is blocked, not revoked)', () => {
      const state = partner
        .given(...approvedPartner)
        .when(kyc('suspended', 'key_live_2'))
        .then(kycChanged('suspended'));
      expect(state.activeKeys.live).toBe('key_live_1');
    });

    it('approving again after a suspension issues no new live key', () => {
      partner
        .given(...approvedPartner, kycChanged('suspended'))
        .when(kyc('approved', 'key_live_2'))
        .then(kycChanged('approved'));
    });

    it('approving an approved partner changes nothing', () => {
      partner
        .given(...approvedPartner)
        .when(kyc('approved', 'key_live_2'))
        .thenNothingHappens();
    });

    it('suspending a partner still in review issues no key', () => {
      const state = partner
        .given(...onboardedPartner)
        .when(kyc('suspended'))
        .then(kycChanged('suspended'));
      expect(state.kycStatus).toBe('suspended');
    });

    it('an approval without a candidate key issues none: the partner claims it', () => {
      const state = partner
        .given(...onboardedPartner)
        .when({ type: 'ChangeKycStatus', status: 'approved', candidateLiveKey: null, at: AT })
        .then(kycChanged('approved'));
      expect(state.activeKeys.live).toBeUndefined();
    });

    it('a partner suspended before any approval gets its live key on its first approval', () => {
      partner
        .given(...onboardedPartner, kycChanged('suspended'))
        .when(kyc('approved'))
        .then(kycChanged('approved'), issued('live', 'key_live_1'));
    });
  });

  describe('regenerating a key', () => {
    it('revokes the old sandbox key and issues a new one in the same decision', () => {
      const state = partner
        .given(...onboardedPartner)
        .when(regenerate('sandbox', 'key_sbx_2'))
        .then(revoked('sandbox', 'key_sbx_1'), issued('sandbox', 'key_sbx_2'));
      expect(state.activeKeys.sandbox).toBe('key_sbx_2');
    });

    it('revokes the old live key and issues a new one', () => {
      partner
        .given(...approvedPartner)
        .when(regenerate('live', 'key_live_2'))
        .then(revoked('live', 'key_live_1'), issued('live', 'key_live_2'));
    });

    it('a second regeneration revokes the key issued by the first', () => {
      partner
        .given(...onboardedPartner, revoked('sandbox', 'key_sbx_1'), issued('sandbox', 'key_sbx_2'))
        .when(regenerate('sandbox', 'key_sbx_3'))
        .then(revoked('sandbox', 'key_sbx_2'), issued('sandbox', 'key_sbx_3'));
    });

    it('leaves the other environment’s key alone', () => {
      const state = partner
        .given(...approvedPartner)
        .when(regenerate('sandbox', 'key_sbx_2'))
        .then(revoked('sandbox', 'key_sbx_1'), issued('sandbox', 'key_sbx_2'));
      expect(state.activeKeys.live).toBe('key_live_1');
    });

    it('refuses to regenerate a live key before KYC approval', () => {
      partner
        .given(...onboardedPartner)
        .when(regenerate('live', 'key_live_1'))
        .thenRefused('invalid_state', 'live keys are issued on KYC approval');
    });
  });

  describe('a partner that does not exist', () => {
    it.each([
      ['a KYC decision', kyc('approved')],
      ['a key regeneration', regenerate('sandbox', 'key_sbx_2')],
    ])('refuses %s with not_found', (_what, command) => {
      partner.given().when(command).thenRefused('not_found');
    });
  });

  describe('restricted keys', () => {
    const bdt = (text: string) => {
      const amount = Money.parse(text, 'BDT');
      if (!amount) throw new Error(text);
      return amount;
    };
    const createKey = (
      overrides: Partial<Extract<PartnerCommand, { type: 'CreateScopedKey' }>> = {},
    ): PartnerCommand => ({
      type: 'CreateScopedKey',
      environment: 'sandbox',
      key: key('key_agent'),
      label: 'agent',
      scope: 'transact',
      perOrderMax: bdt('100.00'),
      dailyMax: bdt('500.00'),
      rateLimitPerMinute: null,
      expiresAt: null,
      mainKeyUsed: 'key_sbx_1',
      at: AT,
      ...overrides,
    });
    const created: ScopedKeyCreated = {
      type: 'ScopedKeyCreated',
      data: {
        partnerId: PARTNER,
        keyId: 'key_agent',
        environment: 'sandbox',
        keyHash: 'hash-of-key_agent',
        label: 'agent',
        scope: 'transact',
        perOrderMax: '100.00',
        dailyMax: '500.00',
        currency: 'BDT',
        expiresAt: null,
        createdAt: AT,
      },
    };

    it('records a restricted key with its caps in the wallet currency, and only its hash', () => {
      partner
        .given(...onboardedPartner)
        .when(createKey())
        .then(created);
    });

    it('refuses caps on a read-only key, a cap in another currency, a per-order cap above the daily one, a past expiry', () => {
      partner
        .given(...onboardedPartner)
        .when(createKey({ scope: 'read_only' }))
        .thenRefused('validation_failed');
      const inr = Money.parse('10.00', 'INR');
      partner
        .given(...onboardedPartner)
        .when(createKey({ dailyMax: inr }))
        .thenRefused('validation_failed', /BDT/);
      partner
        .given(...onboardedPartner)
        .when(createKey({ perOrderMax: bdt('600.00') }))
        .thenRefused('validation_failed');
      partner
        .given(...onboardedPartner)
        .when(createKey({ expiresAt: AT }))
        .thenRefused('validation_failed', /expires_at/);
    });

    it('refuses a live key before KYC approval', () => {
      partner
        .given(...onboardedPartner)
        .when(createKey({ environment: 'live', mainKeyUsed: null }))
        .thenRefused('invalid_state');
    });

    it("refuses a rate limit of its own above the environment's, and records one below it", () => {
      partner
        .given(...onboardedPartner)
        .when(createKey({ rateLimitPerMinute: 61 }))
        .thenRefused('validation_failed', /rate_limit: an integer from 1 to 60/);
      partner
        .given(...onboardedPartner)
        .when(createKey({ rateLimitPerMinute: 0 }))
        .thenRefused('validation_failed', /rate_limit/);
      partner
        .given(...onboardedPartner)
        .when(createKey({ rateLimitPerMinute: 10 }))
        .then({ ...created, data: { ...created.data, rateLimitPerMinute: 10 } });
    });

    describe('a request of the main key decided after the key was regenerated', () => {
      const regenerated = [...onboardedPartner, revoked('sandbox', 'key_sbx_1'), issued('sandbox', 'key_sbx_2')];
      const configure = (mainKeyUsed: string | null): PartnerCommand => ({
        type: 'ConfigurePartner',
        environment: 'sandbox',
        changes: { webhookUrl: 'https://hooks.example.com/in' },
        newSecret: { secretId: 'whs_1', sealed: 'sealed-secret' },
        mainKeyUsed,
        at: AT,
      });

      it('creates no restricted key, changes no setting and takes no webhook secret', () => {
        partner
          .given(...regenerated)
          .when(createKey())
          .thenRefused('invalid_api_key', /revoked while it was handled/);
        partner
          .given(...regenerated)
          .when(configure('key_sbx_1'))
          .thenRefused('invalid_api_key');
      });

      it('is decided as usual for the new main key and for an operator', () => {
        partner
          .given(...regenerated)
          .when(createKey({ mainKeyUsed: 'key_sbx_2' }))
          .then(created);
        partner
          .given(...regenerated)
          .when(createKey({ mainKeyUsed: null }))
          .then(created);
        const state = regenerated.reduce(partnerDecider.evolve, partnerDecider.initialState);
        expect(partnerDecider.decide(configure('key_sbx_2'), state)).toMatchObject({ ok: true });
      });
    });

    describe('regenerating the main key', () => {
      const other: ScopedKeyCreated = {
        ...created,
        data: { ...created.data, keyId: 'key_staff', keyHash: 'hash-of-key_staff', label: 'staff' },
      };
      const live: ScopedKeyCreated = {
        ...created,
        data: { ...created.data, keyId: 'key_live_agent', keyHash: 'hash-of-key_live_agent', environment: 'live' },
      };
      const revokedWithMain = (keyId: string): ScopedKeyRevoked => ({
        type: 'ScopedKeyRevoked',
        data: { partnerId: PARTNER, keyId, environment: 'sandbox', reason: 'main_key_regenerated', revokedAt: AT },
      });
      const alreadyRevoked: ScopedKeyRevoked = {
        type: 'ScopedKeyRevoked',
        data: { partnerId: PARTNER, keyId: 'key_staff', environment: 'sandbox', reason: 'revoked', revokedAt: AT },
      };

      it("revokes the environment's active restricted keys in the same append, with the reason", () => {
        partner
          .given(...approvedPartner, created, other, live)
          .when(regenerate('sandbox', 'key_sbx_2'))
          .then(
            revoked('sandbox', 'key_sbx_1'),
            revokedWithMain('key_agent'),
            revokedWithMain('key_staff'),
            issued('sandbox', 'key_sbx_2'),
          );
      });

      it('leaves keys already revoked, and the other environment, alone', () => {
        const state = partner
          .given(...approvedPartner, created, other, alreadyRevoked, live)
          .when(regenerate('sandbox', 'key_sbx_2'))
          .then(revoked('sandbox', 'key_sbx_1'), revokedWithMain('key_agent'), issued('sandbox', 'key_sbx_2'));
        expect(state.scopedKeys.key_live_agent.active).toBe(true);
      });

      it('keeps them only when asked to', () => {
        partner
          .given(...onboardedPartner, created, other)
          .when(regenerate('sandbox', 'key_sbx_2', true))
          .then(revoked('sandbox', 'key_sbx_1'), issued('sandbox', 'key_sbx_2'));
      });
    });

    it('revokes a key once; a second revocation changes nothing; an unknown key is not found', () => {
      const revoke: PartnerCommand = { type: 'RevokeScopedKey', keyId: 'key_agent', reason: 'revoked', at: AT };
      const keyRevoked: ScopedKeyRevoked = {
        type: 'ScopedKeyRevoked',
        data: { partnerId: PARTNER, keyId: 'key_agent', environment: 'sandbox', reason: 'revoked', revokedAt: AT },
      };
      partner
        .given(...onboardedPartner, created)
        .when(revoke)
        .then(keyRevoked);
      partner
        .given(...onboardedPartner, created, keyRevoked)
        .when(revoke)
        .thenNothingHappens();
      partner
        .given(...onboardedPartner)
        .when(revoke)
        .thenRefused('not_found');
    });
  });

  describe('claiming the first live key', () => {
    const claim = (mainKeyUsed = 'key_sbx_1'): PartnerCommand => ({
      type: 'ClaimLiveKey',
      key: key('key_live_9'),
      mainKeyUsed,
      at: AT,
    });

    it('issues the live key to the partner once KYC is approved', () => {
      const state = partner
        .given(...onboardedPartner, kycChanged('approved'))
        .when(claim())
        .then(issued('live', 'key_live_9'));
      expect(state.activeKeys.live).toBe('key_live_9');
    });

    it('refuses before approval, while suspended, and once a live key was issued', () => {
      partner
        .given(...onboardedPartner)
        .when(claim())
        .thenRefused('invalid_state', /KYC is approved/);
      partner
        .given(...onboardedPartner, kycChanged('suspended'))
        .when(claim())
        .thenRefused('invalid_state');
      partner
        .given(...approvedPartner)
        .when(claim())
        .thenRefused('invalid_state', /already issued/);
    });

    it('refuses a sandbox key revoked while the claim was handled', () => {
      partner
        .given(
          ...onboardedPartner,
          kycChanged('approved'),
          revoked('sandbox', 'key_sbx_1'),
          issued('sandbox', 'key_sbx_2'),
        )
        .when(claim('key_sbx_1'))
        .thenRefused('invalid_api_key');
    });
  });

  describe('the rate-limit ceiling', () => {
    const configure = (
      changes: { rateLimitPerMinute?: number; rateLimitCeilingPerMinute?: number },
      mainKeyUsed: string | null,
      environment: Environment = 'live',
    ): PartnerCommand => ({
      type: 'ConfigurePartner',
      environment,
      changes,
      newSecret: null,
      mainKeyUsed,
      at: AT,
    });
    const settingsChanged = (environment: Environment, changes: Record<string, number>) => ({
      type: 'PartnerSettingsChanged' as const,
      data: { partnerId: PARTNER, environment, changes, changedAt: AT },
    });

    it('lets the partner lower its limit and raise it back up to the ceiling the back office set', () => {
      const throttled = [
        ...approvedPartner,
        settingsChanged('live', { rateLimitPerMinute: 10, rateLimitCeilingPerMinute: 10 }),
      ];
      partner
        .given(...throttled)
        .when(configure({ rateLimitPerMinute: 5 }, 'key_live_1'))
        .then(settingsChanged('live', { rateLimitPerMinute: 5 }));
      partner
        .given(...throttled, settingsChanged('live', { rateLimitPerMinute: 5 }))
        .when(configure({ rateLimitPerMinute: 10 }, 'key_live_1'))
        .then(settingsChanged('live', { rateLimitPerMinute: 10 }));
    });

    it("refuses the partner a limit above the back office's ceiling, or the environment's default ceiling", () => {
      const throttled = [
        ...approvedPartner,
        settingsChanged('live', { rateLimitPerMinute: 10, rateLimitCeilingPerMinute: 10 }),
      ];
      partner
        .given(...throttled)
        .when(configure({ rateLimitPerMinute: 11 }, 'key_live_1'))
        .thenRefused('validation_failed', /at most 10/);
      partner
        .given(...approvedPartner)
        .when(configure({ rateLimitPerMinute: 601 }, 'key_live_1'))
        .thenRefused('validation_failed', /at most 600/);
      partner
        .given(...approvedPartner)
        .when(configure({ rateLimitPerMinute: 121 }, 'key_sbx_1', 'sandbox'))
        .thenRefused('validation_failed', /at most 120/);
    });

    it('lets only the back office move the ceiling', () => {
      partner
        .given(...approvedPartner)
        .when(configure({ rateLimitCeilingPerMinute: 5000 }, 'key_live_1'))
        .thenRefused('validation_failed', /back office only/);
      partner
        .given(...approvedPartner)
        .when(configure({ rateLimitPerMinute: 5000, rateLimitCeilingPerMinute: 5000 }, null))
        .then(settingsChanged('live', { rateLimitPerMinute: 5000, rateLimitCeilingPerMinute: 5000 }));
    });
  });
});
