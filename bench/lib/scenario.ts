import { CpuShare } from './cpu-usage';
import { LoadResult } from './load';

/** One measured run of a load scenario, as the report keeps it. */
export interface Scenario extends LoadResult {
  /** Service RSS (MB) right after the scenario. */
  rss_mb?: number | null;
  cold_start_ms?: number;
  /** Settlement jobs due and not yet done when the measured run began (background work competing with it). */
  jobs_pending_at_start?: number;
  /** CPU ms per answered request by process group during the measured run (Linux only). */
  cpu?: CpuShare | null;
  /**
   * Statements the service sent to PostgreSQL during the measured run per answered request
   * (its request path and whatever background work ran meanwhile, such as earlier orders' settlement).
   */
  statements_per_request?: number | null;
}
