import { Inject, Injectable } from '@nestjs/common';
import { isActiveAt } from '../../domain/back-office/operator.decider';
import { isOperatorTokenShaped } from '../../domain/back-office/operator-token';
import { CLOCK, Clock } from '../ports/clock.port';
import { KEY_HASHER, KeyHasher } from '../ports/secrets.port';
import { OPERATOR_TOKEN_USAGE, OperatorTokenUsage } from '../ports/operator-token-usage.port';
import { ServiceError } from '../shared/service-error';
import { OperatorDirectory } from './operator-directory';
import { OperatorIdentity } from './operator-identity';
import { OperatorTokenRehash } from './operator-token-rehash';

/** Resolves an operator token by its keyed hash under any secret; a revocation by any process refuses it at the next request. */
@Injectable()
export class AuthenticateOperator {
  constructor(
    @Inject(KEY_HASHER) private readonly hasher: KeyHasher,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly directory: OperatorDirectory,
    @Inject(OPERATOR_TOKEN_USAGE) private readonly usage: OperatorTokenUsage,
    private readonly rehash: OperatorTokenRehash,
  ) {}

  async identify(token: string): Promise<OperatorIdentity> {
    if (!isOperatorTokenShaped(token))
      throw new ServiceError('invalid_admin_token', 'the operator token is missing or wrong');
    const { state } = await this.directory.current();
    const candidates = this.hasher.candidates(token);
    const index = candidates.findIndex((hash) => state.byTokenHash.has(hash));
    const operatorId = index < 0 ? undefined : state.byTokenHash.get(candidates[index] ?? '');
    const record = operatorId === undefined ? undefined : state.operators.get(operatorId);
    if (!record) throw new ServiceError('invalid_admin_token', 'the operator token is missing or wrong');
    const at = this.clock.now();
    const now = at.toISOString();
    if (!isActiveAt(record, now))
      throw new ServiceError(
        'invalid_admin_token',
        record.revokedAt === null ? 'the operator token has expired' : 'the operator token has been revoked',
      );
    this.usage.recordUse(record.operatorId, at);
    if (index > 0) await this.rehash.onUse(record.operatorId, this.hasher.hash(token), at);
    return {
      name: record.name,
      role: record.role,
      operatorId: record.operatorId,
      expiresAt: record.expiresAt,
      breakGlass: false,
    };
  }
}
