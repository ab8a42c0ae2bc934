import { postgresTicksBetween } from '../../../bench/lib/cpu-usage';

/*
 * PostgreSQL's CPU over a bench window is counted per server (by postmaster): another server that
 * stops meanwhile (a test's embedded one) takes its ticks away, and must not make the figure negative.
 */
describe('PostgreSQL CPU between two samples', () => {
  it('adds what each server alive at both samples spent', () => {
    const before = new Map([
      [100, 1_000],
      [200, 50],
    ]);
    const after = new Map([
      [100, 1_240],
      [200, 60],
    ]);
    expect(postgresTicksBetween(before, after)).toBe(250);
  });

  it('leaves out a server that stopped or started during the window', () => {
    const before = new Map([
      [100, 1_000],
      [300, 9_000],
    ]);
    const after = new Map([
      [100, 1_030],
      [400, 700],
    ]);
    expect(postgresTicksBetween(before, after)).toBe(30);
  });
});
