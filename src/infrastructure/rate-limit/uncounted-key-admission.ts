import { KeyAdmission, KeyAdmitted } from '../../application/ports/key-admission.port';
import { ApiKeyAccess } from '../../application/ports/read-models.port';

export class UncountedKeyAdmission implements KeyAdmission {
  constructor(private readonly lookUpAccess: (keyHash: string) => Promise<ApiKeyAccess | null>) {}

  async lookUp(keyHash: string): Promise<KeyAdmitted> {
    return { access: await this.lookUpAccess(keyHash), rateLimit: null };
  }
}
