import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { partnerDecider } from '../../domain/partner/partner.decider';
import { partnerStream } from '../../domain/partner/partner.events';
import { CLOCK, Clock } from '../ports/clock.port';
import { PROJECTION_BARRIER, ProjectionBarrier } from '../ports/read-models.port';
import { KEY_HASHER, KeyHasher, SECRET_GENERATOR, SecretGenerator } from '../ports/secrets.port';
import { DeciderRunner } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';
import { ServiceError } from '../shared/service-error';

/** The partner's first live key, shown this once. */
export interface ClaimedLiveKey {
  partnerId: string;
  keyId: string;
  apiKey: string;
}

export class ClaimLiveKey extends Command<ClaimedLiveKey> {
  constructor(
    readonly partnerId: string,
    /** The sandbox main key that asks. */
    readonly sandboxKeyId: string,
  ) {
    super();
  }
}

/**
 * The partner's first live key, issued to the partner itself once KYC is approved: nobody in the
 * back office sees it. Later live keys come from a regeneration (an owner's).
 */
@CommandHandler(ClaimLiveKey)
export class ClaimLiveKeyHandler implements ICommandHandler<ClaimLiveKey> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SECRET_GENERATOR) private readonly secrets: SecretGenerator,
    @Inject(KEY_HASHER) private readonly hasher: KeyHasher,
    @Inject(PROJECTION_BARRIER) private readonly barrier: ProjectionBarrier,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({ partnerId, sandboxKeyId }: ClaimLiveKey): Promise<ClaimedLiveKey> {
    const now = this.clock.now();
    const apiKey = this.secrets.newApiKey('live');
    const keyId = this.secrets.newId('key');
    const result = await this.runner.handle(
      partnerDecider,
      partnerStream(partnerId),
      {
        type: 'ClaimLiveKey',
        key: { keyId, keyHash: this.hasher.hash(apiKey) },
        mainKeyUsed: sandboxKeyId,
        at: now.toISOString(),
      },
      {
        metadata: metadata({
          partnerId,
          environment: 'live',
          correlationId: partnerId,
          actor: { type: 'partner_key', id: sandboxKeyId },
          at: now,
        }),
        eventId: () => randomUUID(),
      },
    );
    if (!result.ok) throw ServiceError.from(result.error);
    await this.barrier.waitFor(result.position);
    return { partnerId, keyId, apiKey };
  }
}
