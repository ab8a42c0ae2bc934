import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { partnerDecider } from '../../domain/partner/partner.decider';
import { PartnerEvent, partnerStream } from '../../domain/partner/partner.events';
import { Actor } from '../../domain/shared/actor';
import { ACCESS_FENCES, AccessFences } from '../ports/access-fences.port';
import { CLOCK, Clock } from '../ports/clock.port';
import { PROJECTION_BARRIER, ProjectionBarrier } from '../ports/read-models.port';
import { KEY_HASHER, KeyHasher, SECRET_GENERATOR, SecretGenerator } from '../ports/secrets.port';
import { DeciderRunner } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';
import { ServiceError } from '../shared/service-error';
import { randomUUID } from 'node:crypto';

/** The live key is shown once, here, when this approval issued it. */
export type KycChangeResult = { partnerId: string; liveApiKey: string } | { partnerId: string; kycStatus: string };

export class ChangeKycStatus extends Command<KycChangeResult> {
  constructor(
    readonly partnerId: string,
    readonly status: 'approved' | 'suspended',
    readonly operator: Actor,
    /** Whether the approver may hold a partner's credentials; if not, the partner claims its key (ClaimLiveKey). */
    readonly issueLiveKey: boolean,
  ) {
    super();
  }
}

/**
 * The first approval by an owner issues the live key (shown once, here); approved by anyone else,
 * the partner claims it with its sandbox key. A suspension blocks live keys until approved again.
 */
@CommandHandler(ChangeKycStatus)
export class ChangeKycStatusHandler implements ICommandHandler<ChangeKycStatus, KycChangeResult> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SECRET_GENERATOR) private readonly secrets: SecretGenerator,
    @Inject(KEY_HASHER) private readonly hasher: KeyHasher,
    @Inject(PROJECTION_BARRIER) private readonly barrier: ProjectionBarrier,
    @Inject(ACCESS_FENCES) private readonly fences: AccessFences,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({ partnerId, status, operator, issueLiveKey }: ChangeKycStatus): Promise<KycChangeResult> {
    const now = this.clock.now();
    const candidate = this.secrets.newApiKey('live');
    const result = await this.runner.handle(
      partnerDecider,
      partnerStream(partnerId),
      {
        type: 'ChangeKycStatus',
        status,
        candidateLiveKey: issueLiveKey
          ? { keyId: this.secrets.newId('key'), keyHash: this.hasher.hash(candidate) }
          : null,
        at: now.toISOString(),
      },
      {
        metadata: metadata({ partnerId, environment: null, correlationId: partnerId, actor: operator, at: now }),
        eventId: () => randomUUID(),
      },
    );
    if (!result.ok) throw ServiceError.from(result.error);
    // A suspension holds from this answer on, whatever the projection lag: live keys are fenced until it is projected.
    if (status === 'suspended' && result.position)
      await this.fences.raise({ partnerId, environment: 'live', position: result.position, at: now });
    await this.barrier.waitFor(result.position);
    const issued = result.events.some((event: PartnerEvent) => event.type === 'ApiKeyIssued');
    return issued ? { partnerId, liveApiKey: candidate } : { partnerId, kycStatus: result.state.kycStatus };
  }
}
