import { firstInexactNumber, isExactAsDouble } from '../../../../../src/interface/http/validation/exact-json-numbers';

describe('reading JSON numbers exactly', () => {
  it.each(['0', '-0', '100', '100.50', '0.1', '0.01', '1e2', '1.005E+2', '123456789012345', '-12.5'])(
    '%s survives being read as a double',
    (literal) => {
      expect(isExactAsDouble(literal)).toBe(true);
    },
  );

  it.each([
    '199.999999999999999',
    '100.0000000000000001',
    '9007199254740993',
    '12345678901234567890',
    '1e400',
    '-1e400',
    '0.30000000000000001',
  ])('%s does not survive being read as a double', (literal) => {
    expect(isExactAsDouble(literal)).toBe(false);
  });

  it('names where the first inexact number is, through objects and arrays, and skips numbers inside strings', () => {
    expect(firstInexactNumber('{"amount": 100.5, "note": "199.999999999999999"}')).toBeNull();
    expect(firstInexactNumber('{"a": {"b": [1, 2, 100.0000000000000001]}}')).toEqual({
      path: 'a.b[2]',
      literal: '100.0000000000000001',
    });
    expect(firstInexactNumber('{"params":{"name":"x","arguments":{"amount":199.999999999999999}}}')).toEqual({
      path: 'params.arguments.amount',
      literal: '199.999999999999999',
    });
    expect(firstInexactNumber('{"k\\"ey": 1, "amount": 12345678901234567890}')).toEqual({
      path: 'amount',
      literal: '12345678901234567890',
    });
    expect(firstInexactNumber('199.999999999999999')).toEqual({ path: 'body', literal: '199.999999999999999' });
  });
});
