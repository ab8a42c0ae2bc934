import { Environment } from '../../domain/shared/environment';
import { GlobalPosition } from './event-store.port';

/**
 * Revocations (KYC suspension, key regeneration, an IP allowlist change) take effect through the
 * read models, which can lag the log (an open transaction holds every reader back). A fence makes
 * them fail closed meanwhile: until the read models have applied the revoking event, every key of
 * the partner in that environment is refused, by every process, since all read the same fence.
 */
export interface AccessFences {
  raise(fence: { partnerId: string; environment: Environment; position: GlobalPosition; at: Date }): Promise<void>;
}

export const ACCESS_FENCES = Symbol('AccessFences');
