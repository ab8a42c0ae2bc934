import { Inject, Injectable, Logger } from '@nestjs/common';
import { currencyOf } from '../../domain/corridor/corridor';
import { environmentOfApiKey } from '../../domain/partner/api-key-format';
import { KEY_HASHER, KeyHasher } from '../ports/secrets.port';
import { KEY_ADMISSION, KeyAdmission, KeyAdmitted } from '../ports/key-admission.port';
import { Environment } from '../../domain/shared/environment';
import { RateLimitDecision } from '../ports/rate-limiter.port';
import { ApiKeyAccess } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';
import { keyRefusal, refusalError } from '../access/access-refusal';
import { Caller } from './caller';
import { KeyRehash } from './key-rehash';

/**
 * Resolves a bearer key to its partner by keyed hash (the lookup time leaks nothing); nothing is cached and a
 * pending revocation fences the partner's keys (decision 0079). Keys found under an older secret of the ring
 * are hashed again under the newest (KeyRehash, decision 0142); KeyAdmission says when the rate limit is counted.
 */
@Injectable()
export class AuthenticateApiKey {
  private readonly logger = new Logger('AuthenticateApiKey');

  constructor(
    @Inject(KEY_HASHER) private readonly hasher: KeyHasher,
    @Inject(KEY_ADMISSION) private readonly admission: KeyAdmission,
    private readonly rehash: KeyRehash,
  ) {}

  /**
   * The caller, with the key's access (its partner's settings: IP allowlist, rate limit), read in
   * one query; `rateLimit` is set when that query also counted the request, null otherwise.
   */
  async admit(
    authorization: string | undefined,
    requestId: string,
    now: Date,
  ): Promise<{ caller: Caller; access: ApiKeyAccess; rateLimit: RateLimitDecision | null }> {
    const match = /^Bearer ([^\s]+)$/i.exec(authorization ?? '');
    const apiKey = match?.[1];
    const environment = apiKey ? environmentOfApiKey(apiKey) : null;
    if (!apiKey || !environment) throw new ServiceError('invalid_api_key', 'missing or malformed API key');
    const { access, rateLimit, underOlderSecret } = await this.lookUp(apiKey, environment, now);
    // Fail closed: a key whose own record is not whole (a restricted key without its terms) is no key.
    if (access?.recordProblem) {
      this.logger.error(
        `API key ${access.key.keyId} of ${access.key.partnerId} refused: its record in the read models is inconsistent (${access.recordProblem}); rebuild the partners read model`,
      );
    }
    const refused = keyRefusal(access, environment, now);
    if (refused) throw refusalError(refused);
    if (!access?.partner) throw new ServiceError('invalid_api_key', 'the API key is not valid or has been revoked');
    const { partner, key, restriction } = access;
    const caller: Caller = {
      partnerId: partner.partnerId,
      environment,
      keyId: key.keyId,
      restriction,
      corridor: partner.corridor,
      currency: currencyOf(partner.corridor),
      requestId,
    };
    if (underOlderSecret) await this.rehash.onUse(key, this.hasher.hash(apiKey), now);
    return { caller, access, rateLimit };
  }

  /** Under each secret of the ring, newest first, until one finds the key (a key hashed under an older secret). */
  private async lookUp(
    apiKey: string,
    environment: Environment,
    now: Date,
  ): Promise<KeyAdmitted & { underOlderSecret: boolean }> {
    let found: KeyAdmitted = { access: null, rateLimit: null };
    for (const [index, hash] of this.hasher.candidates(apiKey).entries()) {
      found = await this.admission.lookUp(hash, environment, now);
      if (found.access) return { ...found, underOlderSecret: index > 0 };
    }
    return { ...found, underOlderSecret: false };
  }
}
