import { Inject, Injectable } from '@nestjs/common';
import { currencyOf } from '../../domain/corridor/corridor';
import { environmentOfApiKey } from '../../domain/partner/api-key-format';
import { KEY_HASHER, KeyHasher } from '../ports/secrets.port';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';
import { Caller } from './caller';

/**
 * Resolves a bearer key to its partner. The key is looked up by its keyed hash, so the
 * lookup time says nothing about how much of a guessed key was right.
 */
@Injectable()
export class AuthenticateApiKey {
  constructor(
    @Inject(KEY_HASHER) private readonly hasher: KeyHasher,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
  ) {}

  async execute(authorization: string | undefined, requestId: string): Promise<Caller> {
    const match = /^Bearer ([^\s]+)$/i.exec(authorization ?? '');
    const apiKey = match?.[1];
    const environment = apiKey ? environmentOfApiKey(apiKey) : null;
    if (!apiKey || !environment) throw new ServiceError('invalid_api_key', 'missing or malformed API key');
    const key = await this.readModels.apiKeyByHash(this.hasher.hash(apiKey));
    if (!key || !key.active || key.environment !== environment) {
      throw new ServiceError('invalid_api_key', 'the API key is not valid or has been revoked');
    }
    const partner = await this.readModels.partner(key.partnerId);
    if (!partner) throw new ServiceError('invalid_api_key', 'the API key is not valid or has been revoked');
    if (environment === 'live' && partner.kycStatus !== 'approved') {
      throw new ServiceError('kyc_required', 'live keys work only while the partner KYC is approved');
    }
    return {
      partnerId: partner.partnerId,
      environment,
      keyId: key.keyId,
      corridor: partner.corridor,
      currency: currencyOf(partner.corridor),
      requestId,
    };
  }
}
