import { Environment } from '../../domain/shared/environment';
import { GlobalPosition } from './event-store.port';

/**
 * Revocations take effect through read models that can lag the log; until they have applied the revoking event,
 * a fence refuses every key of the partner in that environment, in every process (decision 0079).
 */
export interface AccessFences {
  raise(fence: AccessFence): Promise<void>;
}

/** A partner's keys of an environment, fenced until the read models have applied the event at `position`. */
export interface AccessFence {
  partnerId: string;
  environment: Environment;
  position: GlobalPosition;
  at: Date;
}

export const ACCESS_FENCES = Symbol('AccessFences');
