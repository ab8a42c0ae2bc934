import { isOperatorTokenShaped } from '../../../../src/domain/back-office/operator-token';
import { CryptoSecretGenerator } from '../../../../src/infrastructure/security/crypto-secret-generator';

describe('CryptoSecretGenerator', () => {
  it('gives ids of 24 hex characters after the prefix, none twice, across many refills of its random pool', () => {
    const generator = new CryptoSecretGenerator();
    const ids = Array.from({ length: 5000 }, () => generator.newId('ord'));
    for (const id of ids) expect(id).toMatch(/^ord_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('begins each id with its creation second, so ids made later sort after earlier ones', () => {
    let now = Date.parse('2026-11-26T23:59:59.900Z');
    const generator = new CryptoSecretGenerator(() => now);
    const first = generator.newId('ord');
    now += 200; // the next second
    const second = generator.newId('ord');
    expect(first.slice(4, 12)).toBe(Math.floor(Date.parse('2026-11-26T23:59:59Z') / 1000).toString(16));
    expect(second.slice(4, 12)).toBe(Math.floor(Date.parse('2026-11-27T00:00:00Z') / 1000).toString(16));
    expect([second, first].sort()).toEqual([first, second]);
    // Within one second the rest is random: 64 bits.
    const sameSecond = Array.from({ length: 1000 }, () => generator.newId('ord'));
    expect(new Set(sameSecond.map((id) => id.slice(12))).size).toBe(1000);
  });

  it('gives two generators different ids', () => {
    const [a, b] = [new CryptoSecretGenerator(), new CryptoSecretGenerator()];
    expect(a.newId('ord')).not.toBe(b.newId('ord'));
  });

  it('gives sandbox and live keys of the spec format: prefix and 32 base64url characters', () => {
    const generator = new CryptoSecretGenerator();
    expect(generator.newApiKey('sandbox')).toMatch(/^svc_test_[A-Za-z0-9_-]{32}$/);
    expect(generator.newApiKey('live')).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
  });

  it('gives operator tokens of op_ and 43 base64url characters (32 random bytes), each one new', () => {
    const generator = new CryptoSecretGenerator();
    const tokens = Array.from({ length: 100 }, () => generator.newOperatorToken());
    for (const token of tokens) expect(isOperatorTokenShaped(token)).toBe(true);
    expect(tokens[0]).toMatch(/^op_[A-Za-z0-9_-]{43}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});
