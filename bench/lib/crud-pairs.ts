import { alternateWindows, median, RatioSpread, ratioSpread } from './interleaved-pairs';
import { OpenLoadResult } from './open-load';
import { PeerMoneyCheck } from './peer';
import { TopupCost } from './topup-cost';
import { Scenario } from './scenario';
import { round } from './util';

/** One window of the CRUD peer and one of the service, back to back, at the same connections. */
export interface CrudPair {
  service_rps: number;
  peer_rps: number;
  /** service_rps ÷ peer_rps. */
  ratio: number;
  service_p50_ms: number;
  service_p99_ms: number;
  peer_p50_ms: number;
  peer_p99_ms: number;
  /** CPU ms per answered topup in each side's window, of its own process and of PostgreSQL (null where /proc is not read). */
  service_server_cpu_ms: number | null;
  service_postgres_cpu_ms: number | null;
  peer_server_cpu_ms: number | null;
  peer_postgres_cpu_ms: number | null;
  /** Share of all cores used by other processes during the pair (the larger of its two windows). */
  others_busy: number | null;
}

export interface CrudPairs extends RatioSpread {
  connections: number;
  seconds_per_window: number;
  pairs: CrudPair[];
  service_rps_median: number;
  peer_rps_median: number;
  service_p50_ms_median: number;
  service_p99_ms_median: number;
  peer_p50_ms_median: number;
  peer_p99_ms_median: number;
  /** Medians of the pairs' CPU per topup; null unless every pair has the figure. */
  service_server_cpu_ms_median: number | null;
  service_postgres_cpu_ms_median: number | null;
  peer_server_cpu_ms_median: number | null;
  peer_postgres_cpu_ms_median: number | null;
}

/** One offered rate, both sides (open model). */
export interface OpenModelPoint {
  offered_rps: number;
  service: OpenLoadResult & Scenario;
  peer: OpenLoadResult & Scenario;
}

/** One scenario's cost per topup, the service and the peer side by side. */
export interface CostRow {
  scenario: string;
  /** Closed model: connections; open model: null. */
  connections: number | null;
  /** Open model: the offered rate; closed model: null. */
  offered_rps: number | null;
  service: TopupCost & { rps: number; p50_ms: number; p99_ms: number };
  peer: TopupCost & { rps: number; p50_ms: number; p99_ms: number };
}

/** The service beside the plain CRUD peer on the same database, in one run (PostgreSQL mode). */
export interface CrudComparison {
  peer: { wallets: number; seed_ms: number };
  /** topup_vs_crud: service ÷ peer in alternating windows, at the plan's connections and at one. */
  pairs: { at_connections: CrudPairs; at_one: CrudPairs } | null;
  open_model: { seconds_per_window: number; points: OpenModelPoint[] };
  cost: CostRow[];
  /** The peer's own money check at the end of its windows. */
  money: PeerMoneyCheck;
}

export interface CrudPairWindows {
  pairs: number;
  seconds: number;
  connections: number;
  peer: (seconds: number) => Promise<Scenario>;
  service: (seconds: number) => Promise<Scenario>;
}

/** The peer and the service in alternating windows (odd pairs run the service first): the pairs whose median is topup_vs_crud. */
export async function measureCrudPairs(windows: CrudPairWindows): Promise<CrudPairs> {
  const pairs = await alternateWindows({
    pairs: windows.pairs,
    seconds: windows.seconds,
    base: windows.peer,
    compared: windows.service,
  });
  return summarizeCrudPairs(
    windows,
    pairs.map(({ base: peer, compared: service, ratio, others_busy }) => ({
      service_rps: service.rps,
      peer_rps: peer.rps,
      ratio,
      service_p50_ms: service.p50_ms,
      service_p99_ms: service.p99_ms,
      peer_p50_ms: peer.p50_ms,
      peer_p99_ms: peer.p99_ms,
      service_server_cpu_ms: service.cpu?.service_ms ?? null,
      service_postgres_cpu_ms: service.cpu?.postgres_ms ?? null,
      peer_server_cpu_ms: peer.cpu?.service_ms ?? null,
      peer_postgres_cpu_ms: peer.cpu?.postgres_ms ?? null,
      others_busy,
    })),
  );
}

export function summarizeCrudPairs(
  windows: Pick<CrudPairWindows, 'connections' | 'seconds'>,
  pairs: readonly CrudPair[],
): CrudPairs {
  const mid = (pick: (pair: CrudPair) => number, digits: number): number => round(median(pairs.map(pick)), digits);
  const midOfAll = (pick: (pair: CrudPair) => number | null): number | null => {
    const values = pairs.map(pick);
    return values.length > 0 && values.every((value) => value !== null) ? round(median(values), 3) : null;
  };
  return {
    connections: windows.connections,
    seconds_per_window: windows.seconds,
    pairs: [...pairs],
    ...ratioSpread(pairs.map((pair) => pair.ratio)),
    service_rps_median: mid((pair) => pair.service_rps, 1),
    peer_rps_median: mid((pair) => pair.peer_rps, 1),
    service_p50_ms_median: mid((pair) => pair.service_p50_ms, 2),
    service_p99_ms_median: mid((pair) => pair.service_p99_ms, 2),
    peer_p50_ms_median: mid((pair) => pair.peer_p50_ms, 2),
    peer_p99_ms_median: mid((pair) => pair.peer_p99_ms, 2),
    service_server_cpu_ms_median: midOfAll((pair) => pair.service_server_cpu_ms),
    service_postgres_cpu_ms_median: midOfAll((pair) => pair.service_postgres_cpu_ms),
    peer_server_cpu_ms_median: midOfAll((pair) => pair.peer_server_cpu_ms),
    peer_postgres_cpu_ms_median: midOfAll((pair) => pair.peer_postgres_cpu_ms),
  };
}
