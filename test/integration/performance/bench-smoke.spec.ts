import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/**
 * The benchmark is a script, not a timed test: this only proves that `npm run bench` still
 * starts the service and the CRUD peer, drives every scenario and prints the results JSON, on a
 * tiny load (PostgreSQL mode; the embedded run is left out for time). It builds dist/ first if src/ changed.
 */
const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..', '..');

const figures = (value: unknown) =>
  expect(value).toEqual(
    expect.objectContaining({
      connections: expect.any(Number),
      rps: expect.any(Number),
      p50_ms: expect.any(Number),
      p99_ms: expect.any(Number),
      ok: expect.any(Number),
    }),
  );

describe('npm run bench -- --quick --tiny', () => {
  const out = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('runs every scenario and prints the results as one JSON object on its last line', async () => {
    const { stdout } = await run(
      'npm',
      ['run', '--silent', 'bench', '--', '--quick', '--tiny', '--no-embedded', '--json', '--out', out],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_OPTIONS: '' },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 420_000,
      },
    );
    const lines = stdout.trim().split('\n');
    const results = JSON.parse(lines[lines.length - 1]);

    expect(results.schema).toBe('partner-service-bench/1');
    expect(results.plan.name).toBe('tiny');
    expect(results.embedded).toBeNull();
    const pg = results.postgres;
    for (const name of ['limit', 'topup_spread', 'topup_hot', 'topup_history', 'balance', 'balance_bare'])
      figures(pg.scenarios[name]);
    expect(pg.scenarios.topup_spread.ok).toBeGreaterThan(0);
    expect(pg.scenarios.limit.ok).toBeGreaterThan(0);
    expect(pg.scenarios.limit_again.ok).toBeGreaterThan(0);
    // The ratio is the median of LIMIT and topup windows that alternate, at the plan's connections and at one.
    for (const at of [pg.pairs.at_connections, pg.pairs.at_one]) {
      expect(at.pairs).toHaveLength(results.plan.pairs);
      for (const pair of at.pairs) expect(pair.ratio).toBeCloseTo(pair.topup_rps / pair.limit_rps, 2);
    }
    expect(pg.pairs.at_one.connections).toBe(1);
    expect(pg.ratios.topup_vs_limit).toBe(pg.pairs.at_connections.ratio_median);
    // history_vs_fresh likewise: the hot wallet and the history wallet in alternating windows.
    expect(pg.history_pairs).toEqual(
      expect.objectContaining({
        connections: results.plan.connections,
        seconds_per_window: results.plan.pairSeconds,
        ratio_median: expect.any(Number),
        ratio_min: expect.any(Number),
        ratio_max: expect.any(Number),
        spread_pct: expect.any(Number),
        fresh_rps_median: expect.any(Number),
        history_rps_median: expect.any(Number),
      }),
    );
    expect(pg.history_pairs.pairs).toHaveLength(results.plan.pairs);
    for (const pair of pg.history_pairs.pairs) {
      expect(pair.fresh_rps).toBeGreaterThan(0);
      expect(pair.history_rps).toBeGreaterThan(0);
      expect(pair.ratio).toBeCloseTo(pair.history_rps / pair.fresh_rps, 2);
    }
    expect(pg.ratios.history_vs_fresh).toBe(pg.history_pairs.ratio_median);
    // Statements per topup, read from the service's own count (how many depends on batching and admission
    // leases: at 8 connections it can be one or fewer); and a verdict on whether the machine was quiet.
    expect(pg.scenarios.topup_spread.statements_per_request).toBeGreaterThan(0);
    expect(results.quietness).toEqual(
      expect.objectContaining({ reference: expect.any(Boolean), not_reference_because: expect.any(Array) }),
    );
    expect(pg.scenarios.topup_history.cold_start_ms).toEqual(expect.any(Number));
    for (const ratio of ['topup_vs_limit', 'hot_vs_spread', 'history_vs_fresh', 'balance_vs_bare'])
      expect(pg.ratios[ratio]).toEqual(expect.any(Number));
    if (process.platform === 'linux') {
      // Where the CPU went, per answered request: the service and PostgreSQL both worked for every topup.
      expect(pg.scenarios.topup_spread.cpu.service_ms).toBeGreaterThan(0);
      expect(pg.scenarios.topup_spread.cpu.postgres_ms).toBeGreaterThan(0);
      expect(pg.scenarios.limit.cpu.postgres_ms).toBeGreaterThan(0);
    }
    expect(pg.sweep.topup.length).toBe(results.plan.sweep.length);
    expect(pg.sweep.limit.length).toBe(results.plan.sweep.length);
    expect(pg.memory.rss_mb).toBeGreaterThan(0);
    // No money lost or moved twice during the run.
    expect(pg.verify.ok).toBe(true);
    expect(pg.money.consistent).toBe(true);
    expect(results.targets.map((target: { name: string }) => target.name)).toEqual(
      expect.arrayContaining([
        'topup_vs_limit',
        'hot_vs_spread',
        'history_vs_fresh',
        'balance_vs_bare',
        `topup_vs_crud at ${results.plan.connections} connections`,
        'topup_vs_crud at one connection',
        'topup p50_ms at 400 requests/s offered',
        'topup p99_ms at 400 requests/s offered',
      ]),
    );

    // The plain CRUD peer beside the service: pairs at the plan's connections and at one, service ÷ peer.
    const crud = pg.crud;
    for (const at of [crud.pairs.at_connections, crud.pairs.at_one]) {
      expect(at.pairs).toHaveLength(results.plan.pairs);
      for (const pair of at.pairs) {
        expect(pair.peer_rps).toBeGreaterThan(0);
        expect(pair.ratio).toBeCloseTo(pair.service_rps / pair.peer_rps, 2);
      }
    }
    expect(crud.pairs.at_connections.connections).toBe(results.plan.connections);
    expect(crud.pairs.at_one.connections).toBe(1);
    expect(pg.ratios.topup_vs_crud).toBe(crud.pairs.at_connections.ratio_median);
    expect(pg.ratios.topup_vs_crud_at_one).toBe(crud.pairs.at_one.ratio_median);
    // Open model: each offered rate on both sides, with the sends the generator could not make.
    expect(crud.open_model.points.map((point: { offered_rps: number }) => point.offered_rps)).toEqual(
      results.plan.openRates,
    );
    for (const point of crud.open_model.points)
      for (const side of [point.service, point.peer]) {
        figures(side);
        expect(side).toEqual(
          expect.objectContaining({
            offered_rps: point.offered_rps,
            scheduled: expect.any(Number),
            missed: expect.any(Number),
            send_lag_p99_ms: expect.any(Number),
          }),
        );
        expect(side.sent + side.missed).toBe(side.scheduled);
      }
    // The cost per topup of each scenario, service and peer side by side, each counted on its own tables.
    expect(crud.cost.map((row: { scenario: string }) => row.scenario)).toEqual([
      `topup_vs_crud @${results.plan.connections}`,
      'topup_vs_crud @1',
      ...results.plan.openRates.map((rate: number) => `open model @${rate}/s`),
    ]);
    for (const row of crud.cost)
      for (const side of ['service', 'peer']) {
        const cost = row[side];
        expect(cost.topups).toBeGreaterThan(0);
        for (const field of ['postgres_cpu_us', 'transactions', 'rows_written', 'index_entries', 'wal_bytes'])
          expect(cost[field]).toEqual(expect.any(Number));
        expect(cost.statements).toBeGreaterThan(0);
        expect(cost.round_trips).toBeGreaterThan(0);
        const tables = Object.keys(cost.by_table);
        expect(tables.every((table) => table.startsWith('crud_'))).toBe(side === 'peer');
      }
    // The peer's own money check at the end of its windows.
    expect(crud.money).toEqual(expect.objectContaining({ ok: true, balance_mismatches: 0 }));
    expect(crud.money.debits).toBe(crud.money.distinct_keys_debited);

    expect(JSON.parse(readFileSync(join(out, 'latest.json'), 'utf8')).schema).toBe('partner-service-bench/1');
    expect(readFileSync(join(out, 'concurrency.svg'), 'utf8')).toMatch(/^<svg /);
    expect(existsSync(join(out, 'latest.md'))).toBe(true);
  }, 430_000);
});
