import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { partnerDecider } from '../../domain/partner/partner.decider';
import { partnerStream } from '../../domain/partner/partner.events';
import { Actor } from '../../domain/shared/actor';
import { Environment } from '../../domain/shared/environment';
import { ACCESS_FENCES, AccessFences } from '../ports/access-fences.port';
import { CLOCK, Clock } from '../ports/clock.port';
import { PROJECTION_BARRIER, ProjectionBarrier, READ_MODELS, ReadModels } from '../ports/read-models.port';
import { DeciderRunner } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';
import { ServiceError } from '../shared/service-error';

export class RevokeScopedKey extends Command<void> {
  constructor(
    readonly partnerId: string,
    /** The environment the request acts in (the partner's key); null: every environment (an operator). */
    readonly environment: Environment | null,
    readonly keyId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}

/** Revokes a restricted key; like every revocation it fails closed (fenced until the read models have it). */
@CommandHandler(RevokeScopedKey)
export class RevokeScopedKeyHandler implements ICommandHandler<RevokeScopedKey> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PROJECTION_BARRIER) private readonly barrier: ProjectionBarrier,
    @Inject(ACCESS_FENCES) private readonly fences: AccessFences,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({ partnerId, environment, keyId, actor }: RevokeScopedKey): Promise<void> {
    // Found by its record whatever the record holds: a key whose terms are unreadable can still be revoked.
    const key = (await this.readModels.apiKeyAccessByIds([keyId])).get(keyId)?.key;
    if (!key || key.partnerId !== partnerId || (environment !== null && key.environment !== environment))
      throw new ServiceError('not_found', `no restricted key ${keyId}`);
    const now = this.clock.now();
    const result = await this.runner.handle(
      partnerDecider,
      partnerStream(partnerId),
      { type: 'RevokeScopedKey', keyId, reason: 'revoked', at: now.toISOString() },
      {
        metadata: metadata({ partnerId, environment: key.environment, correlationId: partnerId, actor, at: now }),
        eventId: () => randomUUID(),
      },
    );
    if (!result.ok) throw ServiceError.from(result.error);
    // The key is refused from this answer on, whatever the projection lag.
    if (result.position)
      await this.fences.raise({ partnerId, environment: key.environment, position: result.position, at: now });
    await this.barrier.waitFor(result.position);
  }
}
