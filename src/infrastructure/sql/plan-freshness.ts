import { PoolClient } from 'pg';

/**
 * A plan PostgreSQL cached while a table was small may scan the table once it has grown, until new statistics
 * replace it; where nothing analyzes the table (autovacuum off), this does: a connection's cached plans are
 * discarded after this many uses or this many seconds, whichever comes first. `DISCARD PLANS` keeps the
 * connection, its backend's caches and its prepared statements, so only planning is paid again (decision 0176).
 */
export const USES_BETWEEN_PLAN_DISCARDS = 10_000;
export const SECONDS_BETWEEN_PLAN_DISCARDS = 30;

interface PlanAge {
  uses: number;
  since: number;
}

export class PlanFreshness {
  private readonly ages = new WeakMap<PoolClient, PlanAge>();

  constructor(
    private readonly usesBetweenDiscards = USES_BETWEEN_PLAN_DISCARDS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Called each time the pool hands `client` out, before its first statement. */
  async checkedOut(client: PoolClient): Promise<void> {
    const now = this.now();
    const age = this.ages.get(client);
    if (age === undefined) {
      this.ages.set(client, { uses: 1, since: now });
      return;
    }
    age.uses++;
    if (age.uses <= this.usesBetweenDiscards && now - age.since < SECONDS_BETWEEN_PLAN_DISCARDS * 1000) return;
    await client.query('DISCARD PLANS');
    age.uses = 1;
    age.since = now;
  }
}
