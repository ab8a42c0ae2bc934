import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { currencyOf } from '../../domain/corridor/corridor';
import { Money } from '../../domain/money/money';
import { partnerDecider } from '../../domain/partner/partner.decider';
import { partnerStream } from '../../domain/partner/partner.events';
import { KeyScope } from '../../domain/partner/scoped-key';
import { Actor } from '../../domain/shared/actor';
import { Environment } from '../../domain/shared/environment';
import { CLOCK, Clock } from '../ports/clock.port';
import { PROJECTION_BARRIER, ProjectionBarrier, READ_MODELS, ReadModels } from '../ports/read-models.port';
import { KEY_HASHER, KeyHasher, SECRET_GENERATOR, SecretGenerator } from '../ports/secrets.port';
import { DeciderRunner } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';
import { ServiceError } from '../shared/service-error';
import { CreatedScopedKeyResource, scopedKeyResource } from './scoped-key-resource';

export interface ScopedKeyRequest {
  label: string;
  scope: KeyScope;
  /** Decimal strings in the wallet currency of the partner's corridor. */
  per_order_max?: string | null;
  daily_max?: string | null;
  expires_at?: string | null;
  /** Requests per minute of the key's own, at most the environment's; absent or null: the environment's only. */
  rate_limit?: number | null;
}

export class CreateScopedKey extends Command<CreatedScopedKeyResource> {
  constructor(
    readonly partnerId: string,
    readonly environment: Environment,
    readonly request: ScopedKeyRequest,
    readonly actor: Actor,
  ) {
    super();
  }
}

/** A restricted key, shown once in the answer (`api_key`); only its keyed hash is recorded. */
@CommandHandler(CreateScopedKey)
export class CreateScopedKeyHandler implements ICommandHandler<CreateScopedKey> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SECRET_GENERATOR) private readonly secrets: SecretGenerator,
    @Inject(KEY_HASHER) private readonly hasher: KeyHasher,
    @Inject(PROJECTION_BARRIER) private readonly barrier: ProjectionBarrier,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({ partnerId, environment, request, actor }: CreateScopedKey): Promise<CreatedScopedKeyResource> {
    const partner = await this.readModels.partner(partnerId);
    if (!partner) throw new ServiceError('not_found', 'partner not found');
    const currency = currencyOf(partner.corridor);
    const cap = (name: string, text: string | null | undefined): Money | null => {
      if (text === undefined || text === null) return null;
      const money = Money.parse(text, currency);
      if (!money)
        throw new ServiceError('validation_failed', `${name}: a decimal string in ${currency}, e.g. "500.00"`);
      return money;
    };
    if (actor.type === 'operator') requireBackOfficeLimits(request);
    const perOrderMax = cap('per_order_max', request.per_order_max);
    const dailyMax = cap('daily_max', request.daily_max);
    const now = this.clock.now();
    const apiKey = this.secrets.newApiKey(environment);
    const keyId = this.secrets.newId('key');
    const result = await this.runner.handle(
      partnerDecider,
      partnerStream(partnerId),
      {
        type: 'CreateScopedKey',
        environment,
        key: { keyId, keyHash: this.hasher.hash(apiKey) },
        label: request.label,
        scope: request.scope,
        perOrderMax,
        dailyMax,
        rateLimitPerMinute: request.rate_limit ?? null,
        expiresAt: request.expires_at ? new Date(request.expires_at).toISOString() : null,
        mainKeyUsed: actor.type === 'partner_key' ? actor.id : null,
        at: now.toISOString(),
      },
      {
        metadata: metadata({ partnerId, environment, correlationId: partnerId, actor, at: now }),
        eventId: () => randomUUID(),
      },
    );
    if (!result.ok) throw ServiceError.from(result.error);
    await this.barrier.waitFor(result.position);
    const created = (await this.readModels.scopedKeys(partnerId, environment)).find((key) => key.keyId === keyId);
    if (!created) throw new Error(`restricted key ${keyId} was recorded but is not readable yet`);
    return {
      ...scopedKeyResource(created, { spent24h: Money.zero(currency).toDecimal(), refusals24h: 0 }, now),
      api_key: apiKey,
    };
  }
}

/**
 * A key the back office makes for a partner is bounded: it expires, and a transact key has both caps.
 * The partner sees who made it (`created_by`).
 */
function requireBackOfficeLimits(request: ScopedKeyRequest): void {
  if (request.expires_at === undefined || request.expires_at === null)
    throw new ServiceError('validation_failed', 'expires_at: required for a key made by the back office');
  if (request.scope !== 'transact') return;
  for (const [name, value] of [
    ['per_order_max', request.per_order_max],
    ['daily_max', request.daily_max],
  ] as const) {
    if (value === undefined || value === null)
      throw new ServiceError('validation_failed', `${name}: required for a transact key made by the back office`);
  }
}
