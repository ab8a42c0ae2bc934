export type PlanName = 'full' | 'quick' | 'tiny';

/** How big a run is. `full` is the reference run; `quick` about eleven minutes in PostgreSQL mode; `tiny` only proves the bench works (one pair, one offered rate). */
export interface Plan {
  name: PlanName;
  /** Connections of the main scenarios (and pgbench clients of the LIMIT baseline). */
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** Concurrency levels of the throughput / p99 chart. */
  sweep: number[];
  sweepSeconds: number;
  /** Wallets the spread scenario and the balance reads go round. */
  wallets: number;
  historyEvents: number;
  /** Orders to reach before reading the service RSS (0: no long run)... */
  rssOrders: number;
  /** ...or until this many minutes of it have passed. */
  rssMinutes: number;
  embedded: boolean;
  /** The same as durationSeconds: embedded mode runs at the same length and connections as PostgreSQL mode. */
  embeddedSeconds: number;
  embeddedHistoryEvents: number;
  /** Orders of the embedded long run (service RSS plus its server's memory read along the way; 0: none). */
  embeddedRssOrders: number;
  /** Run the concurrency sweep in embedded mode too. */
  embeddedSweep: boolean;
  /** Interleaved LIMIT/topup pairs at the plan's connections and at one (topup_vs_limit is their median). */
  pairs: number;
  pairSeconds: number;
  /**
   * Offered rates (requests/s) of the open-model latency windows, the service and the CRUD peer
   * each; the peer's pairs (topup_vs_crud) take `pairs` and `pairSeconds` as the LIMIT pairs do.
   */
  openRates: number[];
  openSeconds: number;
  /**
   * How long the cost table waits before reading PostgreSQL's row counts: a backend going idle
   * reports its last second of counts up to 10 s later, so less than 11 s leaves some out.
   */
  statsWaitSeconds: number;
  /** How long the machine's own busy share is sampled before the run (the quietness check). */
  idleSampleSeconds: number;
}

export function planFor(name: PlanName): Plan {
  switch (name) {
    case 'full':
      return {
        name,
        connections: 64,
        durationSeconds: 30,
        warmupSeconds: 5,
        sweep: [1, 4, 16, 64],
        sweepSeconds: 10,
        wallets: 100,
        historyEvents: 100_000,
        rssOrders: 1_000_000,
        rssMinutes: 30,
        embedded: true,
        embeddedSeconds: 30,
        embeddedHistoryEvents: 100_000,
        embeddedRssOrders: 100_000,
        embeddedSweep: true,
        pairs: 5,
        pairSeconds: 6,
        openRates: [200, 400, 800],
        openSeconds: 10,
        statsWaitSeconds: 11,
        idleSampleSeconds: 3,
      };
    case 'quick':
      return {
        name,
        connections: 64,
        durationSeconds: 6,
        warmupSeconds: 1.5,
        sweep: [1, 4, 16, 64],
        sweepSeconds: 2,
        wallets: 100,
        historyEvents: 100_000,
        rssOrders: 0,
        rssMinutes: 0,
        embedded: true,
        embeddedSeconds: 6,
        embeddedHistoryEvents: 100_000,
        embeddedRssOrders: 0,
        embeddedSweep: false,
        pairs: 5,
        pairSeconds: 4,
        openRates: [200, 400, 800],
        openSeconds: 4,
        statsWaitSeconds: 11,
        idleSampleSeconds: 3,
      };
    case 'tiny':
      return {
        name,
        connections: 8,
        durationSeconds: 0.6,
        warmupSeconds: 0.2,
        sweep: [1, 8],
        sweepSeconds: 0.5,
        wallets: 4,
        historyEvents: 1_000,
        rssOrders: 0,
        rssMinutes: 0,
        embedded: true,
        embeddedSeconds: 0.6,
        embeddedHistoryEvents: 1_000,
        embeddedRssOrders: 0,
        embeddedSweep: true,
        pairs: 1,
        pairSeconds: 0.5,
        openRates: [400],
        openSeconds: 0.5,
        statsWaitSeconds: 1,
        idleSampleSeconds: 0.5,
      };
  }
}
