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
import { ScopedKeyInUse, scopedKeyInUse } from './list-scoped-keys';

export interface ScopedKeyRequest {
  label: string;
  scope: KeyScope;
  /** Decimal strings in the wallet currency of the partner's corridor. */
  perOrderMax?: string | null;
  dailyMax?: string | null;
  expiresAt?: string | null;
  /** Requests per minute of the key's own, at most the environment's; absent or null: the environment's only. */
  rateLimitPerMinute?: number | null;
}

/** A key just created, with the key itself: the one answer that holds it. */
export interface CreatedScopedKey extends ScopedKeyInUse {
  apiKey: string;
}

export class CreateScopedKey extends Command<CreatedScopedKey> {
  constructor(
    readonly partnerId: string,
    readonly environment: Environment,
    readonly request: ScopedKeyRequest,
    readonly actor: Actor,
  ) {
    super();
  }
}

/** A restricted key, shown once in the answer (`apiKey`); only its keyed hash is recorded. */
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

  async execute({ partnerId, environment, request, actor }: CreateScopedKey): Promise<CreatedScopedKey> {
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
    const perOrderMax = cap('per_order_max', request.perOrderMax);
    const dailyMax = cap('daily_max', request.dailyMax);
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
        rateLimitPerMinute: request.rateLimitPerMinute ?? null,
        expiresAt: request.expiresAt ? new Date(request.expiresAt).toISOString() : null,
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
    const usage = { spentLast24h: Money.zero(currency).toDecimal(), refusalsLast24h: 0 };
    return { ...scopedKeyInUse(created, usage, now), apiKey };
  }
}

/**
 * A key the back office makes for a partner is bounded: it expires, and a transact key has both caps.
 * The partner sees who made it (`created_by`).
 */
function requireBackOfficeLimits(request: ScopedKeyRequest): void {
  if (request.expiresAt === undefined || request.expiresAt === null)
    throw new ServiceError('validation_failed', 'expires_at: required for a key made by the back office');
  if (request.scope !== 'transact') return;
  for (const [name, value] of [
    ['per_order_max', request.perOrderMax],
    ['daily_max', request.dailyMax],
  ] as const) {
    if (value === undefined || value === null)
      throw new ServiceError('validation_failed', `${name}: required for a transact key made by the back office`);
  }
}
