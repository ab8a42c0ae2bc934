import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { operatorsDecider } from '../../domain/back-office/operator.decider';
import { OPERATORS_STREAM } from '../../domain/back-office/operator.events';
import { systemActor } from '../../domain/shared/actor';
import { DeciderRunner } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';

/** Hashes an operator token found under an older server secret again under the newest, at its use; a failure is logged and retried later. */
@Injectable()
export class OperatorTokenRehash {
  private readonly logger = new Logger('OperatorTokenRehash');

  constructor(private readonly runner: DeciderRunner) {}

  async onUse(operatorId: string, tokenHash: string, now: Date): Promise<void> {
    const result = await this.runner
      .handle(
        operatorsDecider,
        OPERATORS_STREAM,
        { type: 'RehashToken', operatorId, tokenHash, at: now.toISOString() },
        {
          metadata: metadata({
            partnerId: null,
            environment: null,
            correlationId: operatorId,
            actor: systemActor('rehash-operator-tokens'),
            at: now,
          }),
          eventId: () => randomUUID(),
        },
      )
      .catch((error: unknown) => ({ ok: false as const, error }));
    if (!result.ok)
      this.logger.warn(`operator token ${operatorId} was not hashed again under the newest server secret`);
  }
}
