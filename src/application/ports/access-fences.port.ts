import { Environment } from '../../domain/shared/environment';
import { GlobalPosition } from './event-store.port';

/**
 * Revocations take effect through read models that can lag the log; until they have applied the revoking event,
 * a fence refuses every key of the partner in that environment, in every process (decision 0079).
 */
export interface AccessFences {
  raise(fence: { partnerId: string; environment: Environment; position: GlobalPosition; at: Date }): Promise<void>;
}

export const ACCESS_FENCES = Symbol('AccessFences');
