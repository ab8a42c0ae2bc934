import { CostRow, CrudComparison } from './crud-pairs';
import { HistoryPairs } from './history-pairs';
import { BenchResults, ModeResults } from './types';
import { Scenario } from './scenario';

const fmt = (value: number | null | undefined, digits = 1): string =>
  value === null || value === undefined ? '–' : value.toFixed(digits);

const SCENARIO_LABELS: Record<keyof ModeResults['scenarios'], string> = {
  limit: 'LIMIT: pgbench, 1 INSERT + 1 conditional UPDATE per tx',
  limit_again: 'LIMIT again, right after the 100-wallet topups',
  topup_spread: 'topup, 100 wallets',
  topup_hot: 'topup, one hot wallet (fresh)',
  topup_history: 'topup, wallet with 100,000 events',
  balance: 'GET /balance (Nest service)',
  balance_bare: 'GET /balance, bare Fastify, same SQL',
};

/** The results as Markdown: the scenario table, the ratios against their targets, the sweep. */
export function markdownReport(results: BenchResults): string {
  const { plan } = results;
  const lines: string[] = [];
  lines.push(
    `Run: \`${plan.name}\`, ${results.started_at.slice(0, 16).replace('T', ' ')} UTC, ${results.duration_s} s; ${plan.connections} connections, ` +
      `${plan.durationSeconds} s per scenario after ${plan.warmupSeconds} s warm-up; ${results.machine.cpus} × ${results.machine.cpu_model}, ` +
      `${results.machine.memory_gb} GB, Node ${results.machine.node}, PostgreSQL ${results.machine.postgres} (synchronous_commit=${results.machine.synchronous_commit}); load average ${results.machine.load_average_start} at start, ${results.machine.load_average_end} at end.`,
  );
  lines.push('');
  const modes = [results.postgres, ...(results.embedded ? [results.embedded] : [])];
  lines.push(`| scenario | ${modes.map((m) => `${m.mode} req/s | p50 ms | p99 ms`).join(' | ')} |`);
  lines.push(`|---|${modes.map(() => '---:|---:|---:').join('|')}|`);
  for (const key of Object.keys(SCENARIO_LABELS) as (keyof ModeResults['scenarios'])[]) {
    const label = SCENARIO_LABELS[key]
      .replace('100 wallets', `${plan.wallets} wallets`)
      .replace('100,000 events', `${results.postgres.history.wallet_events.toLocaleString('en-US')} events`);
    const cells = modes.map((m) => {
      const s: Scenario | null = m.scenarios[key];
      return s ? `${fmt(s.rps, 0)} | ${fmt(s.p50_ms, 2)} | ${fmt(s.p99_ms, 2)}` : '– | – | –';
    });
    lines.push(`| ${label} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  lines.push(`| ratio | target | ${modes.map((m) => m.mode).join(' | ')} |`);
  lines.push(`|---|---|${modes.map(() => '---:').join('|')}|`);
  const ratioRows: [keyof ModeResults['ratios'], string][] = [
    ['topup_vs_limit', '>= 0.8'],
    ['topup_vs_crud', '>= 1.5'],
    ['topup_vs_crud_at_one', '>= 1.0'],
    ['hot_vs_spread', '>= 0.8'],
    ['history_vs_fresh', '>= 0.9'],
    ['balance_vs_bare', '>= 0.6'],
  ];
  for (const [key, target] of ratioRows)
    lines.push(`| ${key} | ${target} | ${modes.map((m) => fmt(m.ratios[key], 2)).join(' | ')} |`);
  lines.push('');
  const pairs = results.postgres.pairs;
  if (pairs) {
    lines.push(
      `Interleaved pairs (postgres mode; LIMIT and topups alternating in ${pairs.at_connections.seconds_per_window} s windows; the ratio is the median of the pairs):`,
    );
    lines.push('');
    lines.push(
      '| connections | pairs | topup/LIMIT median | min | max | spread | topup p50 ms | topup p99 ms | LIMIT p50 ms |',
    );
    lines.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const at of [pairs.at_connections, pairs.at_one]) {
      lines.push(
        `| ${at.connections} | ${at.pairs.length} | ${fmt(at.ratio_median, 2)} | ${fmt(at.ratio_min, 2)} | ${fmt(at.ratio_max, 2)} | ${fmt(at.spread_pct, 1)} % | ` +
          `${fmt(at.topup_p50_ms_median, 2)} | ${fmt(at.topup_p99_ms_median, 2)} | ${fmt(at.limit_p50_ms_median, 2)} |`,
      );
    }
    lines.push('');
  }
  lines.push(...historyPairsTable(modes));
  if (results.postgres.crud) lines.push(...crudTables(results.postgres.crud));
  const quiet = results.quietness;
  if (quiet) {
    lines.push(
      quiet.reference
        ? `A reference run: the machine was quiet (${fmt((quiet.idle_busy_before ?? 0) * 100, 0)} % busy before; other processes at most ${fmt((quiet.others_busy_max ?? 0) * 100, 0)} % during).`
        : `**Not a reference run** (it may not replace the figures in docs/performance.md): ${quiet.not_reference_because.join('; ')}.`,
    );
    lines.push('');
  }
  lines.push('| target | value | met |');
  lines.push('|---|---:|---|');
  for (const target of results.targets) {
    const met = target.met === null ? 'not measured' : target.met ? 'yes' : '**no**';
    lines.push(
      `| ${target.name} ${target.target} | ${fmt(target.value, 2)} | ${met}${target.note ? ` (${target.note})` : ''} |`,
    );
  }
  lines.push('');
  const pg = results.postgres;
  const withCpu = (Object.keys(SCENARIO_LABELS) as (keyof ModeResults['scenarios'])[]).filter(
    (key) => pg.scenarios[key]?.cpu,
  );
  if (withCpu.length > 0) {
    lines.push(
      `CPU per answered request or LIMIT transaction (postgres mode, ${plan.connections} connections; ms of CPU time from /proc; "server" is the service, or the bare server for its row; "client" is the load generator, or pgbench for LIMIT):`,
    );
    lines.push('');
    lines.push(
      '| scenario | server ms | PostgreSQL ms | client ms | total ms | machine busy | others | statements per request |',
    );
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const key of withCpu) {
      const cpu = pg.scenarios[key]!.cpu!;
      const total =
        (key === 'limit' || key === 'limit_again' ? 0 : (cpu.service_ms ?? 0)) + cpu.postgres_ms + cpu.client_ms;
      const server = key === 'limit' || key === 'limit_again' ? '–' : fmt(cpu.service_ms, 3);
      const others = typeof cpu.others_busy === 'number' ? `${Math.round(cpu.others_busy * 100)} %` : '–';
      const statements = pg.scenarios[key]?.statements_per_request;
      lines.push(
        `| ${SCENARIO_LABELS[key]} | ${server} | ${fmt(cpu.postgres_ms, 3)} | ${fmt(cpu.client_ms, 3)} | ${fmt(total, 3)} | ` +
          `${Math.round(cpu.machine_busy * 100)} % | ${others} | ${typeof statements === 'number' ? fmt(statements, 2) : '–'} |`,
      );
    }
    lines.push('');
  }
  lines.push(
    `Concurrency sweep (${plan.sweepSeconds} s per point; the ${plan.connections}-connection point is the main run):`,
  );
  lines.push('');
  lines.push(`| connections | ${plan.sweep.map(String).join(' | ')} |`);
  lines.push(`|---|${plan.sweep.map(() => '---:').join('|')}|`);
  lines.push(`| topup postgres req/s | ${pg.sweep.topup.map((s) => fmt(s.rps, 0)).join(' | ')} |`);
  lines.push(`| topup postgres p99 ms | ${pg.sweep.topup.map((s) => fmt(s.p99_ms, 2)).join(' | ')} |`);
  lines.push(`| LIMIT tx/s | ${pg.sweep.limit.map((s) => fmt(s.rps, 0)).join(' | ')} |`);
  lines.push(`| LIMIT p99 ms | ${pg.sweep.limit.map((s) => fmt(s.p99_ms, 2)).join(' | ')} |`);
  if (results.embedded && results.embedded.sweep.topup.length === plan.sweep.length) {
    lines.push(`| topup embedded req/s | ${results.embedded.sweep.topup.map((s) => fmt(s.rps, 0)).join(' | ')} |`);
    lines.push(`| topup embedded p99 ms | ${results.embedded.sweep.topup.map((s) => fmt(s.p99_ms, 2)).join(' | ')} |`);
  }
  lines.push('');
  for (const m of modes) {
    lines.push(
      `${m.mode}: history seeded with ${m.history.events.toLocaleString('en-US')} events in ${m.history.seed_ms} ms, projected in ${m.history.projection_catch_up_ms} ms; ` +
        `cold first topup on it ${fmt(m.scenarios.topup_history.cold_start_ms, 0)} ms. ` +
        `Service RSS ${fmt(m.memory.rss_mb)} MB after ${m.memory.orders.toLocaleString('en-US')} orders (peak ${fmt(m.memory.peak_rss_mb)} MB)` +
        (m.memory.server_rss_mb !== undefined
          ? `, its PostgreSQL server ${fmt(m.memory.server_rss_mb)} MB (PSS)`
          : '') +
        (m.memory.first_start_ms !== undefined
          ? `; first start ${m.memory.first_start_ms} ms, restart ${m.memory.restart_ms} ms`
          : '') +
        '. ' +
        `verify: ${m.verify.ok ? 'ok' : '**FAILED**'} over ${m.verify.events ?? '–'} events / ${m.verify.orders ?? '–'} orders in ${m.verify.ms} ms; ` +
        `topups answered 200: ${m.money.accepted_topups}, debits in the log: ${m.money.debits_in_log} (one per key: ${m.money.distinct_keys_debited === m.money.debits_in_log ? 'yes' : '**no**'}), requests sent at most ${m.money.sent_topups}: ${m.money.consistent ? 'consistent' : '**inconsistent**'}.`,
    );
    lines.push('');
    const long = m.memory.long_run;
    if (long) {
      const byOrders = long.samples
        .map((sample) => `${sample.orders.toLocaleString('en-US')} → ${fmt(sample.rss_mb, 0)} MB`)
        .join(', ');
      lines.push(
        long.rps === null
          ? `${m.mode} long run: not needed, the scenarios had placed ${long.orders_reached.toLocaleString('en-US')} orders ` +
              `(target ${long.target_orders.toLocaleString('en-US')}); memory then: ${byOrders}.`
          : `${m.mode} long run: ${long.orders_reached.toLocaleString('en-US')} of ${long.target_orders.toLocaleString('en-US')} orders in ${long.seconds} s ` +
              `(${long.rps} topups/s); service RSS by orders: ${byOrders}.`,
      );
      lines.push('');
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The hot wallet and the history wallet in alternating windows, one row per mode that measured them. */
function historyPairsTable(modes: readonly ModeResults[]): string[] {
  const measured = modes.filter(
    (m): m is ModeResults & { history_pairs: HistoryPairs } => (m.history_pairs?.pairs.length ?? 0) > 0,
  );
  if (measured.length === 0) return [];
  const events = [...new Set(measured.map((m) => m.history.wallet_events.toLocaleString('en-US')))].join(' or ');
  const lines = [
    `History pairs (hot wallet and the wallet with ${events} events alternating in ${measured[0].history_pairs.seconds_per_window} s windows; history_vs_fresh is the median of the pairs):`,
    '',
    '| mode | connections | pairs | history/fresh median | min | max | spread | hot wallet req/s (median) | history wallet req/s (median) | history p99 ms (median) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { mode, history_pairs: at } of measured) {
    lines.push(
      `| ${mode} | ${at.connections} | ${at.pairs.length} | ${fmt(at.ratio_median, 2)} | ${fmt(at.ratio_min, 2)} | ${fmt(at.ratio_max, 2)} | ${fmt(at.spread_pct, 1)} % | ` +
        `${fmt(at.fresh_rps_median, 0)} | ${fmt(at.history_rps_median, 0)} | ${fmt(at.history_p99_ms_median, 2)} |`,
    );
  }
  lines.push('');
  return lines;
}

/** The service beside the plain CRUD peer: the pairs, the open-model latency, the cost per topup, the peer's money check. */
function crudTables(crud: CrudComparison): string[] {
  const lines: string[] = [];
  if (crud.pairs) {
    lines.push(
      `CRUD peer pairs (postgres mode; the plain CRUD topup of bench/peer/ and the service alternating in ${crud.pairs.at_connections.seconds_per_window} s windows on the same database; topup_vs_crud is the median of service ÷ peer; CPU per topup is the median of the windows' own, counted while the load ran, PostgreSQL's being every process of the server):`,
      '',
      '| connections | pairs | service/peer median | min | max | spread | service req/s | peer req/s | service p50 / p99 ms | peer p50 / p99 ms | CPU ms per topup, service: server / PostgreSQL | peer: server / PostgreSQL |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const at of [crud.pairs.at_connections, crud.pairs.at_one]) {
      lines.push(
        `| ${at.connections} | ${at.pairs.length} | ${fmt(at.ratio_median, 2)} | ${fmt(at.ratio_min, 2)} | ${fmt(at.ratio_max, 2)} | ${fmt(at.spread_pct, 1)} % | ` +
          `${fmt(at.service_rps_median, 0)} | ${fmt(at.peer_rps_median, 0)} | ${fmt(at.service_p50_ms_median, 2)} / ${fmt(at.service_p99_ms_median, 2)} | ` +
          `${fmt(at.peer_p50_ms_median, 2)} / ${fmt(at.peer_p99_ms_median, 2)} | ` +
          `${fmt(at.service_server_cpu_ms_median, 3)} / ${fmt(at.service_postgres_cpu_ms_median, 3)} | ` +
          `${fmt(at.peer_server_cpu_ms_median, 3)} / ${fmt(at.peer_postgres_cpu_ms_median, 3)} |`,
      );
    }
    lines.push('');
  }
  if (crud.open_model.points.length > 0) {
    lines.push(
      `Open model (requests sent at a fixed rate whatever the answers' latency, ${crud.open_model.seconds_per_window} s per window; latency from when each request was due; "missed": sends not made because too many requests were unanswered):`,
      '',
      '| offered req/s | service answered/s | p50 ms | p99 ms | missed | peer answered/s | p50 ms | p99 ms | missed | generator lag p99 ms (service, peer) |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const point of crud.open_model.points) {
      const { service, peer } = point;
      lines.push(
        `| ${point.offered_rps} | ${fmt(service.rps, 0)} | ${fmt(service.p50_ms, 2)} | ${fmt(service.p99_ms, 2)} | ${service.missed} | ` +
          `${fmt(peer.rps, 0)} | ${fmt(peer.p50_ms, 2)} | ${fmt(peer.p99_ms, 2)} | ${peer.missed} | ${fmt(service.send_lag_p99_ms, 2)}, ${fmt(peer.send_lag_p99_ms, 2)} |`,
      );
    }
    lines.push('');
  }
  if (crud.cost.length > 0) {
    const wait = crud.cost[0].service.stats_wait_s;
    lines.push(
      `Cost per topup, service and peer side by side (one more window per scenario and side, from its first request until its orders were settled; CPU from /proc, statements and round trips counted by each server, rows and index entries from pg_stat_user_tables of each side's tables, WAL from pg_current_wal_lsn of the whole server${wait < 11 ? `; row counts read ${wait} s after the load, before every backend had reported them: incomplete` : ''}):`,
      '',
      '| scenario | side | topups/s | server CPU µs | PostgreSQL CPU µs | statements | round trips | commits | rows written | of which HOT updates | index entries | WAL bytes | WAL records (full pages) | settled after ms |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const row of crud.cost) {
      for (const side of ['service', 'peer'] as const) {
        const c = row[side];
        lines.push(
          `| ${row.scenario} | ${side} | ${fmt(c.rps, 0)} | ${fmt(c.server_cpu_us, 0)} | ${fmt(c.postgres_cpu_us, 0)} | ${fmt(c.statements, 2)} | ${fmt(c.round_trips, 2)} | ` +
            `${fmt(c.transactions, 2)} | ${fmt(c.rows_written, 2)} | ${fmt(c.rows_hot_updated, 2)} | ${fmt(c.index_entries, 2)} | ${fmt(c.wal_bytes, 0)} | ${fmt(c.wal_records, 1)} (${fmt(c.wal_full_page_images, 2)}) | ${c.settle_ms} |`,
        );
      }
    }
    lines.push('');
    lines.push(...costByTable(crud.cost[0]));
  }
  const m = crud.money;
  lines.push(
    `CRUD peer money check: ${m.wallets} wallets, ${m.balance_mismatches} off credits − debits + refunds; topups answered 200: ${m.accepted_topups}, ` +
      `debits: ${m.debits} for ${m.distinct_keys_debited} keys (${m.keys_bound} bound to their order), sent at most ${m.sent_topups}; ${m.settled} settled: ` +
      `${m.ok ? 'consistent' : '**inconsistent**'}.`,
    '',
  );
  return lines;
}

/** Where one scenario's rows went, table by table, per topup. */
function costByTable(row: CostRow): string[] {
  const lines = [
    `Rows per topup by table (${row.scenario}; updates in parentheses are HOT; index entries count every full B-tree index of the table per row written, a partial one by the rows it gained, and no BRIN index):`,
    '',
    '| side | table | inserted | updated (HOT) | deleted | index entries |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const side of ['service', 'peer'] as const) {
    const tables = Object.entries(row[side].by_table).sort(([, a], [, b]) => b.index_entries - a.index_entries);
    for (const [table, w] of tables)
      lines.push(
        `| ${side} | ${table} | ${fmt(w.inserted, 2)} | ${fmt(w.updated, 2)} (${fmt(w.hot_updated, 2)}) | ${fmt(w.deleted, 2)} | ${fmt(w.index_entries, 2)} |`,
      );
  }
  lines.push('');
  return lines;
}
