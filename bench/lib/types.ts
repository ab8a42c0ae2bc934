import { CrudComparison } from './crud-pairs';
import { HistoryPairs } from './history-pairs';
import { InterleavedPairs } from './interleaved-pairs';
import { Quietness } from './reference-run';
import { Scenario } from './scenario';
import { Plan } from './plan';
import { StoreMode } from './service';

export interface ModeResults {
  mode: StoreMode;
  scenarios: {
    limit: Scenario | null;
    /** LIMIT once more, right after topup_spread; topup_vs_limit divides by the mean of the two. */
    limit_again: Scenario | null;
    topup_spread: Scenario;
    topup_hot: Scenario;
    topup_history: Scenario;
    balance: Scenario;
    balance_bare: Scenario | null;
  };
  ratios: {
    topup_vs_limit: number | null;
    hot_vs_spread: number;
    history_vs_fresh: number;
    balance_vs_bare: number | null;
    /** PostgreSQL mode: service ÷ CRUD peer topups/s, the median of alternating pairs at the plan's connections... */
    topup_vs_crud?: number | null;
    /** ...and at one connection. */
    topup_vs_crud_at_one?: number | null;
  };
  sweep: { topup: Scenario[]; limit: Scenario[] };
  /** PostgreSQL mode: LIMIT and topups in alternating windows, at the plan's connections and at one. */
  pairs?: { at_connections: InterleavedPairs; at_one: InterleavedPairs } | null;
  /**
   * The fresh hot wallet and the history wallet in alternating windows after the cold start, at the
   * plan's connections; history_vs_fresh is their median (null when the plan has no pairs).
   */
  history_pairs?: HistoryPairs | null;
  /** PostgreSQL mode: the service beside the plain CRUD peer (bench/peer/) on the same database. */
  crud?: CrudComparison | null;
  history: { events: number; seed_ms: number; projection_catch_up_ms: number; wallet_events: number };
  memory: {
    orders: number;
    rss_mb: number | null;
    peak_rss_mb: number | null;
    /** Embedded mode: proportional set size (shared memory counted once) of the PostgreSQL server's processes. */
    server_rss_mb?: number | null;
    /** Embedded mode: process start to first answered /health, on a fresh folder and on a restart. */
    first_start_ms?: number;
    restart_ms?: number;
    long_run: {
      orders_reached: number;
      target_orders: number;
      seconds: number;
      /** Null when the scenarios had placed the target's orders already, so the long run placed none. */
      rps: number | null;
      samples: { orders: number; rss_mb: number | null }[];
    } | null;
  };
  verify: {
    ok: boolean;
    status: number;
    ms: number;
    events: number | null;
    wallets: number | null;
    orders: number | null;
    breaches: number;
  };
  money: {
    accepted_topups: number;
    sent_topups: number;
    debits_in_log: number;
    distinct_keys_debited: number;
    consistent: boolean;
  };
  setup_ms: number;
}

export interface Target {
  name: string;
  target: string;
  value: number | null;
  met: boolean | null;
  note?: string;
}

export interface BenchResults {
  schema: 'partner-service-bench/1';
  plan: Plan;
  started_at: string;
  finished_at: string;
  duration_s: number;
  machine: Record<string, string | number>;
  postgres: ModeResults;
  embedded: ModeResults | null;
  targets: Target[];
  /** Whether the machine was quiet enough for the run to stand as the reference. */
  quietness?: Quietness;
}
