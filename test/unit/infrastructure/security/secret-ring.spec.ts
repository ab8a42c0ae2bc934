import { loadConfig } from '../../../../src/config/load-config';
import { AesSecretBox } from '../../../../src/infrastructure/security/aes-secret-box';
import { HmacKeyHasher } from '../../../../src/infrastructure/security/hmac-key-hasher';
import { HmacSnapshotSeal } from '../../../../src/infrastructure/security/hmac-snapshot-seal';

const A = 'secret-a-0123456789abcdef0123456789abcdef';
const B = 'secret-b-0123456789abcdef0123456789abcdef';

describe('a ring of server secrets, newest first', () => {
  it('hashes new keys under the newest secret, and offers the hash under each for a presented key', () => {
    const underA = new HmacKeyHasher(A);
    const ring = new HmacKeyHasher([B, A]);
    expect(ring.candidates('svc_test_key')).toEqual([
      new HmacKeyHasher(B).hash('svc_test_key'),
      underA.hash('svc_test_key'),
    ]);
    expect(ring.hash('svc_test_key')).toBe(new HmacKeyHasher(B).hash('svc_test_key'));
  });

  it('opens secrets sealed under an older secret, seals under the newest, and tells which is which', () => {
    const sealedUnderA = new AesSecretBox(A).seal('whsec_example');
    const ring = new AesSecretBox([B, A]);
    expect(ring.open(sealedUnderA)).toBe('whsec_example');
    expect(ring.sealedUnderNewest(sealedUnderA)).toBe(false);
    const resealed = ring.seal('whsec_example');
    expect(ring.sealedUnderNewest(resealed)).toBe(true);
    expect(new AesSecretBox(B).open(resealed)).toBe('whsec_example');
    expect(() => new AesSecretBox(B).open(sealedUnderA)).toThrow('unreadable sealed secret');
  });

  it('verifies wallet snapshots sealed under any secret of the ring', () => {
    const seal = new HmacSnapshotSeal(A).seal('state');
    expect(new HmacSnapshotSeal([B, A]).verifies('state', seal)).toBe(true);
    expect(new HmacSnapshotSeal(B).verifies('state', seal)).toBe(false);
  });

  describe('API_KEY_SECRETS', () => {
    const base = {
      EVENT_STORE: 'postgres',
      DATABASE_URL: 'postgres://localhost/x',
      ADMIN_TOKEN: 'admin-token-0123456789-0123456789ab',
    };

    it('is the ring, newest first; API_KEY_SECRET alone is a ring of one', () => {
      expect(loadConfig({ ...base, API_KEY_SECRETS: `${B}, ${A}` })).toMatchObject({
        apiKeySecret: B,
        apiKeySecrets: [B, A],
      });
      expect(loadConfig({ ...base, API_KEY_SECRET: A })).toMatchObject({ apiKeySecret: A, apiKeySecrets: [A] });
      expect(loadConfig({ ...base, API_KEY_SECRET: B, API_KEY_SECRETS: `${B},${A}` }).apiKeySecrets).toEqual([B, A]);
    });

    it.each([
      [`${B},short`, 'each secret of API_KEY_SECRETS must be at least 32 characters'],
      [`${B},${B}`, 'API_KEY_SECRETS lists a secret twice'],
    ])('refuses %s at startup', (ring, problem) => {
      expect(() => loadConfig({ ...base, API_KEY_SECRETS: ring })).toThrow(problem);
    });

    it('refuses an API_KEY_SECRET beside it that is not its newest', () => {
      expect(() => loadConfig({ ...base, API_KEY_SECRET: A, API_KEY_SECRETS: `${B},${A}` })).toThrow(
        'API_KEY_SECRET, when set beside API_KEY_SECRETS, must be its first (newest) secret',
      );
    });
  });
});
