import { AccessFence, AccessFences } from '../../application/ports/access-fences.port';
import { AdmissionLeases } from '../../application/ports/key-admission.port';

/** A raised fence also ends the partner's admission leases: the revoking answer comes once none can be used. */
export class LeaseReleasingFences implements AccessFences {
  constructor(
    private readonly fences: AccessFences,
    private readonly leases: AdmissionLeases,
  ) {}

  async raise(fence: AccessFence): Promise<void> {
    await this.fences.raise(fence);
    await this.leases.release(fence.partnerId, fence.environment);
  }
}
