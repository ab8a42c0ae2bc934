import { KeyAdmission, KeyAdmitted } from '../../application/ports/key-admission.port';
import { ApiKeyAccess } from '../../application/ports/read-models.port';

/** Where the rate limit lives elsewhere (Redis): the lookup alone; the caller counts. */
export class UncountedKeyAdmission implements KeyAdmission {
  constructor(private readonly lookUpAccess: (keyHash: string) => Promise<ApiKeyAccess | null>) {}

  async lookUp(keyHash: string): Promise<KeyAdmitted> {
    return { access: await this.lookUpAccess(keyHash), rateLimit: null };
  }
}
