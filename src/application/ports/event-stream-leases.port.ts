import { Environment } from '../../domain/shared/environment';

/** One open event stream, as every process of the service counts it. */
export interface EventStreamLease {
  streamId: string;
  partnerId: string;
  environment: Environment;
  keyId: string;
}

/** How many streams may be open at once, whichever processes serve them. */
export interface EventStreamLimits {
  perKey: number;
  perPartner: number;
}

/** Null: the lease is taken. Otherwise which limit it would pass. */
export type LeaseRefusal = 'key' | 'partner' | null;

/**
 * The open event streams of every process, counted in one place so that the limits hold across
 * processes. A lease lives while its process renews it; one that is not renewed (its process
 * died) lapses after `ttlMs` and no longer counts.
 */
export interface EventStreamLeases {
  acquire(lease: EventStreamLease, limits: EventStreamLimits, ttlMs: number): Promise<LeaseRefusal>;
  renew(streamIds: readonly string[], ttlMs: number): Promise<void>;
  release(streamId: string): Promise<void>;
}

export const EVENT_STREAM_LEASES = Symbol('EventStreamLeases');
