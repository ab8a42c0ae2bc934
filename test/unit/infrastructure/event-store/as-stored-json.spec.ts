import { asStoredJson } from '../../../../src/infrastructure/event-store/as-stored-json';

describe('asStoredJson: a value as a JSON column gives it back', () => {
  it('gives back plain JSON itself, without a copy', () => {
    const data = { amount: '12.5000', nested: { list: [1, 'two', { three: null }], empty: {} }, flag: false };
    expect(asStoredJson(data)).toBe(data);
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    expect(asStoredJson(bare)).toBe(bare);
  });

  const holed = new Array<unknown>(3);
  holed[0] = 1;
  holed[2] = 3;

  it.each([
    ['a date', { at: new Date('2026-12-02T10:00:00.000Z') }, { at: '2026-12-02T10:00:00.000Z' }],
    ['an undefined property', { kept: 1, missing: undefined }, { kept: 1 }],
    ['an undefined array item', { list: [1, undefined] }, { list: [1, null] }],
    ['a hole in an array', { list: holed }, { list: [1, null, 3] }],
    ['NaN and Infinity', { nan: Number.NaN, inf: Number.POSITIVE_INFINITY }, { nan: null, inf: null }],
    ['minus zero', { zero: -0 }, { zero: 0 }],
    ['an object with toJSON', { money: { toJSON: () => '1.00' } }, { money: '1.00' }],
    ['a function', { kept: 1, run: () => 1 }, { kept: 1 }],
  ])('gives %s as JSON does', (_name, value, expected) => {
    const stored = asStoredJson(value);
    expect(stored).not.toBe(value);
    expect(stored).toStrictEqual(expected);
    expect(stored).toStrictEqual(JSON.parse(JSON.stringify(value)));
  });
});
