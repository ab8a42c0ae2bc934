import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { partnerDecider } from '../../domain/partner/partner.decider';
import { activeScopedKeys } from '../../domain/partner/scoped-key-creation';
import { partnerStream } from '../../domain/partner/partner.events';
import { Actor } from '../../domain/shared/actor';
import { Environment } from '../../domain/shared/environment';
import { ACCESS_FENCES, AccessFences } from '../ports/access-fences.port';
import { CLOCK, Clock } from '../ports/clock.port';
import { PROJECTION_BARRIER, ProjectionBarrier } from '../ports/read-models.port';
import { KEY_HASHER, KeyHasher, SECRET_GENERATOR, SecretGenerator } from '../ports/secrets.port';
import { DeciderRunner } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';
import { ServiceError } from '../shared/service-error';

/** A restricted key as a regeneration answer names it. */
export interface RestrictedKeyNamed {
  keyId: string;
  label: string;
}

/** The new main key, shown this once, and what became of the environment's restricted keys. */
export interface RegeneratedKey {
  partnerId: string;
  environment: Environment;
  apiKey: string;
  /** The environment's restricted keys revoked with the old main key (none when they were kept). */
  revokedRestrictedKeys: RestrictedKeyNamed[];
  /** The environment's active restricted keys left working (only when the caller asked to keep them). */
  keptRestrictedKeys: RestrictedKeyNamed[];
}

export class RegenerateApiKey extends Command<RegeneratedKey> {
  constructor(
    readonly partnerId: string,
    readonly environment: Environment,
    readonly operator: Actor,
    /** Keep the environment's restricted keys working; by default they are revoked with the main key. */
    readonly keepRestrictedKeys = false,
  ) {
    super();
  }
}

/**
 * Issues a new key and revokes the old one in one append. The environment's restricted keys go too unless the
 * caller keeps them: whoever held a leaked main key could have made some (decision 0083).
 */
@CommandHandler(RegenerateApiKey)
export class RegenerateApiKeyHandler implements ICommandHandler<RegenerateApiKey> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SECRET_GENERATOR) private readonly secrets: SecretGenerator,
    @Inject(KEY_HASHER) private readonly hasher: KeyHasher,
    @Inject(PROJECTION_BARRIER) private readonly barrier: ProjectionBarrier,
    @Inject(ACCESS_FENCES) private readonly fences: AccessFences,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({ partnerId, environment, operator, keepRestrictedKeys }: RegenerateApiKey): Promise<RegeneratedKey> {
    const now = this.clock.now();
    const apiKey = this.secrets.newApiKey(environment);
    const result = await this.runner.handle(
      partnerDecider,
      partnerStream(partnerId),
      {
        type: 'RegenerateKey',
        environment,
        key: { keyId: this.secrets.newId('key'), keyHash: this.hasher.hash(apiKey) },
        keepRestrictedKeys,
        at: now.toISOString(),
      },
      {
        metadata: metadata({ partnerId, environment, correlationId: partnerId, actor: operator, at: now }),
        eventId: () => randomUUID(),
      },
    );
    if (!result.ok) throw ServiceError.from(result.error);
    // The old key is refused from this answer on, whatever the projection lag: the environment's keys are fenced until it is projected.
    if (result.position) await this.fences.raise({ partnerId, environment, position: result.position, at: now });
    await this.barrier.waitFor(result.position);
    const named = (keyId: string): RestrictedKeyNamed => ({
      keyId,
      label: result.state.scopedKeys[keyId]?.label ?? '',
    });
    const revoked = result.events.flatMap((event) => (event.type === 'ScopedKeyRevoked' ? [event.data.keyId] : []));
    return {
      partnerId,
      environment,
      apiKey,
      revokedRestrictedKeys: revoked.map(named),
      keptRestrictedKeys: keepRestrictedKeys ? activeScopedKeys(result.state, environment).map(named) : [],
    };
  }
}
