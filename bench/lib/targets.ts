import { Plan } from './plan';
import { ratio } from './util';
import { ModeResults, Target } from './types';

/** A target with its measured value; `met` is null when the value was not measured. */
const t = (name: string, target: string, value: number | null, ok: (v: number) => boolean, note?: string): Target => ({
  name,
  target,
  value,
  met: value === null ? null : ok(value),
  ...(note ? { note } : {}),
});

export function targetsOf(plan: Plan, pg: ModeResults): Target[] {
  const millionReached = pg.memory.orders >= 1_000_000;
  const rssNote = millionReached ? undefined : `measured after ${pg.memory.orders} orders, not one million`;
  return [
    t(
      'topup_vs_limit',
      '>= 0.8',
      pg.ratios.topup_vs_limit,
      (v) => v >= 0.8,
      pg.pairs ? `median of ${pg.pairs.at_connections.pairs.length} interleaved pairs` : undefined,
    ),
    ...crudTargetsOf(plan, pg),
    t('hot_vs_spread', '>= 0.8', pg.ratios.hot_vs_spread, (v) => v >= 0.8),
    t(
      'history_vs_fresh',
      '>= 0.9',
      pg.ratios.history_vs_fresh,
      (v) => v >= 0.9,
      pg.history_pairs ? `median of ${pg.history_pairs.pairs.length} interleaved pairs` : undefined,
    ),
    t('balance_vs_bare', '>= 0.6', pg.ratios.balance_vs_bare, (v) => v >= 0.6),
    t(`topup_p99_ms at ${plan.connections} connections`, '<= 25', pg.scenarios.topup_spread.p99_ms, (v) => v <= 25),
    t(
      'topup_p50_ms at one connection (median of the pairs)',
      '<= 1.5',
      pg.pairs?.at_one.topup_p50_ms_median ?? null,
      (v) => v <= 1.5,
    ),
    {
      ...t('rss_mb after one million orders', '< 400', pg.memory.rss_mb, (v) => v < 400, rssNote),
      ...(millionReached ? {} : { met: null }),
    },
    t('verify ok (postgres)', 'true', pg.verify.ok ? 1 : 0, (v) => v === 1),
    t('accepted <= debits <= sent, one debit per key (postgres)', 'true', pg.money.consistent ? 1 : 0, (v) => v === 1),
  ];
}

/** The service against the plain CRUD peer, and its latency at a fixed offered rate (open model). */
function crudTargetsOf(plan: Plan, pg: ModeResults): Target[] {
  const crud = pg.crud ?? null;
  const pairs = crud?.pairs ?? null;
  const at400 = crud?.open_model.points.find((point) => point.offered_rps === 400) ?? null;
  const pairsNote = (count: number | undefined) => (count ? `median of ${count} interleaved pairs` : undefined);
  const openNote = at400
    ? `open model, ${at400.service.ok} answered in ${crud?.open_model.seconds_per_window} s, ${at400.service.missed} sends missed`
    : undefined;
  return [
    t(
      `topup_vs_crud at ${plan.connections} connections`,
      '>= 1.5',
      pg.ratios.topup_vs_crud ?? null,
      (v) => v >= 1.5,
      pairsNote(pairs?.at_connections.pairs.length),
    ),
    t(
      'topup_vs_crud at one connection',
      '>= 1.0',
      pg.ratios.topup_vs_crud_at_one ?? null,
      (v) => v >= 1.0,
      pairsNote(pairs?.at_one.pairs.length),
    ),
    t('topup p50_ms at 400 requests/s offered', '<= 5', at400?.service.p50_ms ?? null, (v) => v <= 5, openNote),
    t('topup p99_ms at 400 requests/s offered', '<= 20', at400?.service.p99_ms ?? null, (v) => v <= 20, openNote),
    t(
      'CRUD peer: balance = credits − debits + refunds, one debit per key, accepted <= debits <= sent',
      'true',
      crud ? (crud.money.ok ? 1 : 0) : null,
      (v) => v === 1,
    ),
  ];
}

/** The embedded mode's own targets: throughput beside PostgreSQL mode in the same run, start times, footprint. */
export function embeddedTargetsOf(plan: Plan, pg: ModeResults, embedded: ModeResults): Target[] {
  const long = embedded.memory.long_run;
  const lastSample = long?.samples[long.samples.length - 1] ?? null;
  const reached = long !== null && long.orders_reached >= 100_000;
  return [
    t(
      `embedded topups vs postgres mode at ${plan.connections} connections`,
      '>= 0.8',
      ratio(embedded.scenarios.topup_spread.rps, pg.scenarios.topup_spread.rps),
      (v) => v >= 0.8,
    ),
    t(
      'embedded first start on a fresh folder, ms',
      '<= 5000',
      embedded.memory.first_start_ms ?? null,
      (v) => v <= 5000,
      'process start to first answered /health, from the sources',
    ),
    t(
      'embedded restart, ms',
      '<= 3000',
      embedded.memory.restart_ms ?? null,
      (v) => v <= 3000,
      'process start to first answered /health, from the sources',
    ),
    {
      ...t(
        'embedded service RSS + server PSS after 100,000 orders, MB',
        '<= 400',
        lastSample?.rss_mb ?? null,
        (v) => v <= 400,
        reached ? undefined : 'no embedded long run in this plan',
      ),
      ...(reached ? {} : { met: null }),
    },
    t('verify ok (embedded)', 'true', embedded.verify.ok ? 1 : 0, (v) => v === 1),
    t(
      'accepted <= debits <= sent, one debit per key (embedded)',
      'true',
      embedded.money.consistent ? 1 : 0,
      (v) => v === 1,
    ),
  ];
}
