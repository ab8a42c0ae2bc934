import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Corridor } from '../../domain/corridor/corridor';
import { partnerDecider } from '../../domain/partner/partner.decider';
import { PartnerEvent, partnerStream } from '../../domain/partner/partner.events';
import { Actor } from '../../domain/shared/actor';
import { CLOCK, Clock } from '../ports/clock.port';
import { PROJECTION_BARRIER, ProjectionBarrier } from '../ports/read-models.port';
import { KEY_HASHER, KeyHasher, SECRET_GENERATOR, SecretGenerator } from '../ports/secrets.port';
import { DeciderRunner } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';
import { deterministicEventId } from '../shared/event-ids';
import { ServiceError } from '../shared/service-error';
import { SandboxGrant } from './sandbox-grant';

/**
 * A new partner, with its sandbox key shown this once to an owner; null to anyone else, since whoever holds the
 * sandbox key can claim the live one (decision 0128).
 */
export interface OnboardedPartner {
  partnerId: string;
  sandboxApiKey: string | null;
}

export class OnboardPartner extends Command<OnboardedPartner> {
  constructor(
    readonly name: string,
    readonly corridor: Corridor,
    readonly operator: Actor,
    /** Whether the one who onboards may see the sandbox key (the `issue_credentials` permission). */
    readonly showSandboxKey = true,
  ) {
    super();
  }
}

/** A new partner gets a sandbox key (shown once, here) and a sandbox wallet with the starting credit. */
@CommandHandler(OnboardPartner)
export class OnboardPartnerHandler implements ICommandHandler<OnboardPartner> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SECRET_GENERATOR) private readonly secrets: SecretGenerator,
    @Inject(KEY_HASHER) private readonly hasher: KeyHasher,
    @Inject(PROJECTION_BARRIER) private readonly barrier: ProjectionBarrier,
    private readonly runner: DeciderRunner,
    private readonly grant: SandboxGrant,
  ) {}

  async execute({ name, corridor, operator, showSandboxKey }: OnboardPartner): Promise<OnboardedPartner> {
    const now = this.clock.now();
    const partnerId = this.secrets.newId('ptr');
    const apiKey = this.secrets.newApiKey('sandbox');
    const result = await this.runner.handle(
      partnerDecider,
      partnerStream(partnerId),
      {
        type: 'OnboardPartner',
        partnerId,
        name,
        corridor,
        sandboxKey: { keyId: this.secrets.newId('key'), keyHash: this.hasher.hash(apiKey) },
        at: now.toISOString(),
      },
      {
        metadata: metadata({ partnerId, environment: null, correlationId: partnerId, actor: operator, at: now }),
        eventId: (event: PartnerEvent, index) => deterministicEventId(partnerId, event.type, String(index)),
      },
    );
    if (!result.ok) throw ServiceError.from(result.error);
    await this.barrier.waitFor(result.position);
    await this.grant.ensure(partnerId, corridor, partnerId);
    return { partnerId, sandboxApiKey: showSandboxKey ? apiKey : null };
  }
}
