import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { AdmissionLeases, KeyAdmission, KeyAdmitted } from '../../application/ports/key-admission.port';
import { RateLimitDecision } from '../../application/ports/rate-limiter.port';
import { ApiKeyAccess } from '../../application/ports/read-models.port';
import { Environment } from '../../domain/shared/environment';

export interface AdmissionLeaseOptions {
  /** How long the tokens of a lease, and the access they were taken with, may be used; 0: no leases. */
  leaseMs: number;
  /** A partner's requests per minute in an environment, as the read models hold it now. */
  limitOf: (partnerId: string, environment: Environment) => Promise<number>;
  /** Monotonic milliseconds; `performance.now` unless a test drives it. */
  ticks?: () => number;
  /** Waits out the leases of other processes; a real timer unless a test records it. */
  wait?: (ms: number) => Promise<void>;
}

/** A lease never holds more than this share of a minute's limit, so it cannot overshoot or waste more. */
const MOST_OF_A_MINUTE_LEASED = 1 / 100;
/** Keys remembered at most before idle ones are forgotten (an attacker cannot grow it: only counted keys enter). */
const MOST_KEYS_REMEMBERED = 10_000;

interface Lease {
  access: ApiKeyAccess;
  partnerId: string;
  environment: Environment;
  decisions: RateLimitDecision[];
  expiresAt: number;
  /** The service clock's time of the admission: its decisions hold only that near it (a test clock can jump). */
  clockAt: number;
}

/** A counted key's requests in the current and the previous lease period, which size its next lease. */
interface Demand {
  periodStart: number;
  count: number;
  previous: number;
  limit: number;
  leasing: boolean;
}

/**
 * Admission leases (decision 0161): a key's admission takes, beside its request's token, as many spare tokens as the
 * key used in the last lease period (at most 1 % of its limit per minute), and the key's next requests within the
 * lease's life are admitted from those tokens and that access without a statement. Everything that changes a key's
 * access releases the partner's leases and waits until no process can still use one, so its answer is as strict as
 * an admission from the database.
 */
export class LeasedKeyAdmission implements KeyAdmission, AdmissionLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly demand = new Map<string, Demand>();
  /** Moves on every release: a lease asked for before it is not kept. */
  private generation = 0;
  private readonly ticks: () => number;
  private readonly wait: (ms: number) => Promise<void>;

  constructor(
    private readonly inner: KeyAdmission,
    private readonly options: AdmissionLeaseOptions,
  ) {
    this.ticks = options.ticks ?? (() => performance.now());
    this.wait = options.wait ?? ((ms) => delay(ms));
  }

  async lookUp(keyHash: string, environment: Environment, now: Date): Promise<KeyAdmitted> {
    const id = `${keyHash} ${environment}`;
    const startedAt = this.ticks();
    const leased = this.fromLease(id, startedAt, now.getTime());
    if (leased) return leased;
    const demand = this.demand.get(id);
    const spare = demand && !demand.leasing ? this.spareFor(demand) : 0;
    if (!demand || spare === 0) return this.admitted(id, await this.inner.lookUp(keyHash, environment, now), startedAt);
    const generation = this.generation;
    demand.leasing = true;
    try {
      const admitted = await this.inner.lookUp(keyHash, environment, now, spare);
      const spares = admitted.spares ?? [];
      if (
        admitted.access?.partner &&
        admitted.rateLimit?.allowed &&
        spares.length > 0 &&
        generation === this.generation
      )
        this.leases.set(id, {
          access: admitted.access,
          partnerId: admitted.access.partner.partnerId,
          environment,
          decisions: [...spares],
          expiresAt: startedAt + this.options.leaseMs,
          clockAt: now.getTime(),
        });
      return this.admitted(id, { access: admitted.access, rateLimit: admitted.rateLimit }, startedAt);
    } finally {
      demand.leasing = false;
    }
  }

  async release(
    partnerId: string,
    environment: Environment,
    limits?: { before: number; after: number },
  ): Promise<void> {
    this.generation += 1;
    for (const [id, lease] of this.leases)
      if (lease.partnerId === partnerId && lease.environment === environment) this.leases.delete(id);
    // A raised limit: a lease taken under the lower one admits less, so no other process needs waiting out.
    if (this.options.leaseMs === 0 || (limits && limits.after >= limits.before)) return;
    const leasedUnder = limits?.before ?? (await this.options.limitOf(partnerId, environment));
    // Below the smallest limit that leases, no process holds a lease of this partner's keys.
    if (leaseCap(leasedUnder, this.options.leaseMs) > 0) await this.waitOut(this.options.leaseMs);
  }

  /** A timer may fire a little early by the monotonic clock; the wait lasts until that clock says so. */
  private async waitOut(ms: number): Promise<void> {
    const until = this.ticks() + ms;
    for (let left = ms; left > 0; left = until - this.ticks()) await this.wait(Math.ceil(left));
  }

  private fromLease(id: string, at: number, clockAt: number): KeyAdmitted | null {
    const lease = this.leases.get(id);
    if (!lease) return null;
    const sinceAdmission = clockAt - lease.clockAt;
    const live = lease.expiresAt > at && sinceAdmission >= 0 && sinceAdmission < this.options.leaseMs;
    const decision = live ? lease.decisions.shift() : undefined;
    if (lease.decisions.length === 0 || !live) this.leases.delete(id);
    if (!decision) return null;
    const demand = this.demand.get(id);
    if (demand) countDemand(demand, at, this.options.leaseMs);
    return { access: lease.access, rateLimit: decision };
  }

  /** Remembers a counted key's demand and limit; keys not counted (unknown, refused, allowlisted) are not remembered. */
  private admitted(id: string, admitted: KeyAdmitted, at: number): KeyAdmitted {
    if (this.options.leaseMs === 0 || !admitted.rateLimit) return admitted;
    let demand = this.demand.get(id);
    if (!demand) {
      if (this.demand.size >= MOST_KEYS_REMEMBERED) this.forgetIdle(at);
      demand = { periodStart: at, count: 0, previous: 0, limit: admitted.rateLimit.limit, leasing: false };
      this.demand.set(id, demand);
    }
    demand.limit = admitted.rateLimit.limit;
    countDemand(demand, at, this.options.leaseMs);
    return admitted;
  }

  /** As many as the key used in a lease period lately (this request excluded), within the cap of its limit. */
  private spareFor(demand: Demand): number {
    const wanted = Math.max(demand.previous, demand.count) - 1;
    return Math.max(0, Math.min(wanted, leaseCap(demand.limit, this.options.leaseMs)));
  }

  private forgetIdle(at: number): void {
    for (const [id, lease] of this.leases) if (lease.expiresAt <= at) this.leases.delete(id);
    for (const [id, demand] of this.demand)
      if (at - demand.periodStart >= 2 * this.options.leaseMs && !demand.leasing) this.demand.delete(id);
    if (this.demand.size >= MOST_KEYS_REMEMBERED) this.demand.clear();
  }
}

/** Counts a request in its key's demand, moving to a new period once a lease's time has passed. */
function countDemand(demand: Demand, at: number, leaseMs: number): void {
  const elapsed = at - demand.periodStart;
  if (elapsed >= leaseMs) {
    demand.previous = elapsed < 2 * leaseMs ? demand.count : 0;
    demand.count = 0;
    demand.periodStart = at;
  }
  demand.count += 1;
}

/** The most spare tokens one lease may take at this limit per minute: its share of the lease's time, and at most 1 %. */
export function leaseCap(limitPerMinute: number, leaseMs: number): number {
  if (leaseMs <= 0) return 0;
  return Math.floor(Math.min((limitPerMinute * leaseMs) / 60_000, limitPerMinute * MOST_OF_A_MINUTE_LEASED));
}
