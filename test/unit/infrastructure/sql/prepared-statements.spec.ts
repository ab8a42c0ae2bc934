import { preparedQuery } from '../../../../src/infrastructure/sql/prepared-statements';

describe('preparedQuery', () => {
  it('gives one text one name every time, and another text another name', () => {
    const first = preparedQuery('SELECT $1::int AS a', [1]);
    expect(first).toEqual({
      name: expect.stringMatching(/^s_[0-9a-f]{20}$/),
      text: 'SELECT $1::int AS a',
      values: [1],
    });
    expect(preparedQuery('SELECT $1::int AS a', [2]).name).toBe(first.name);
    expect(preparedQuery('SELECT $1::int AS b', [2]).name).not.toBe(first.name);
  });

  it('never names a statement without parameters (migration scripts of several statements)', () => {
    expect(preparedQuery('CREATE TABLE t (a int); CREATE INDEX ON t (a);', [])).toEqual({
      text: 'CREATE TABLE t (a int); CREATE INDEX ON t (a);',
      values: [],
    });
  });

  it('stops naming new texts after the first hundred, so texts built per call cannot pile up on the server', () => {
    const names = Array.from({ length: 120 }, (_, index) => preparedQuery(`SELECT $1::int + ${index}`, [index]).name);
    expect(names.filter((name) => name !== undefined).length).toBeLessThanOrEqual(100);
    expect(names.slice(-10)).toEqual(Array.from({ length: 10 }, () => undefined));
    expect(preparedQuery('SELECT $1::int AS a', [3]).name).toMatch(/^s_/);
  });
});
