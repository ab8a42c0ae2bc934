import { CryptoSecretGenerator } from '../../../../src/infrastructure/security/crypto-secret-generator';
import { withoutSecrets } from '../../../../src/infrastructure/security/without-secrets';

describe('withoutSecrets', () => {
  const generator = new CryptoSecretGenerator();

  it('masks every credential the service makes (API keys of both environments, webhook secrets, operator tokens), wherever it sits in the text', () => {
    const live = generator.newApiKey('live');
    const sandbox = generator.newApiKey('sandbox');
    const webhook = generator.newWebhookSecret();
    const operator = generator.newOperatorToken();
    const text = `upstream said: Authorization: Bearer ${live}; sandbox=${sandbox}, secret "${webhook}" (${operator})`;
    const masked = withoutSecrets(text);
    for (const secret of [live, sandbox, webhook, operator]) expect(masked).not.toContain(secret);
    expect(masked).toBe(
      'upstream said: Authorization: Bearer svc_live_[redacted]; sandbox=svc_test_[redacted], secret "whsec_[redacted]" (op_[redacted])',
    );
  });

  it('leaves ids and other text alone', () => {
    const text = `order ${generator.newId('ord')} of key ${generator.newId('key')} by operator op_asha failed`;
    expect(withoutSecrets(text)).toBe(text);
  });
});

describe('withoutSecrets with known values', () => {
  it('masks the break-glass token and the key-hashing secret by value, wherever they appear', () => {
    const breakGlass = 'b'.repeat(20) + '-break-glass-token';
    const text = `Authorization: Bearer ${breakGlass} (again: ${breakGlass})`;
    expect(withoutSecrets(text, [breakGlass, ''])).toBe('Authorization: Bearer [redacted] (again: [redacted])');
  });
});
