import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { partnerDecider } from '../../domain/partner/partner.decider';
import { partnerStream } from '../../domain/partner/partner.events';
import { SettingsChange } from '../../domain/partner/partner-settings';
import { Actor } from '../../domain/shared/actor';
import { Environment } from '../../domain/shared/environment';
import { parseCidr } from '../access/ip-allowlist';
import { OUTBOUND_ADDRESS_POLICY, WebhookUrlPolicy } from '../ports/outbound-address-policy.port';
import { ACCESS_FENCES, AccessFences } from '../ports/access-fences.port';
import { CLOCK, Clock } from '../ports/clock.port';
import { ADMISSION_LEASES, AdmissionLeases } from '../ports/key-admission.port';
import { PROJECTION_BARRIER, ProjectionBarrier } from '../ports/read-models.port';
import { SECRET_GENERATOR, SecretGenerator } from '../ports/secrets.port';
import { SECRET_BOX, SecretBox } from '../ports/webhook.port';
import { DeciderRunner } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';
import { ServiceError } from '../shared/service-error';
import { EnvironmentSettings, environmentSettings } from './environment-settings';

export interface SettingsRequest extends SettingsChange {
  rotateWebhookSecret?: boolean;
}

/** The settings after the change, and the webhook secret when this change created one: shown this once. */
export interface ConfiguredSettings extends EnvironmentSettings {
  newWebhookSecret: string | null;
}

export class ConfigurePartner extends Command<ConfiguredSettings> {
  constructor(
    readonly partnerId: string,
    readonly environment: Environment,
    readonly request: SettingsRequest,
    readonly actor: Actor,
    /** False: a back-office role that may not hold the webhook secret, so no change may create one. */
    readonly options: { maySeeSecret: boolean } = { maySeeSecret: true },
  ) {
    super();
  }
}

const MAX_ALLOWLIST_ENTRIES = 50;

/**
 * Changes webhook URL, IP allowlist and rate limit, and creates or rotates the webhook
 * secret (shown once, in this answer). Every change is an event that records its actor.
 */
@CommandHandler(ConfigurePartner)
export class ConfigurePartnerHandler implements ICommandHandler<ConfigurePartner> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SECRET_GENERATOR) private readonly secrets: SecretGenerator,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(PROJECTION_BARRIER) private readonly barrier: ProjectionBarrier,
    @Inject(ACCESS_FENCES) private readonly fences: AccessFences,
    @Inject(OUTBOUND_ADDRESS_POLICY) private readonly addressPolicy: WebhookUrlPolicy,
    @Inject(ADMISSION_LEASES) private readonly leases: AdmissionLeases,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({ partnerId, environment, request, actor, options }: ConfigurePartner): Promise<ConfiguredSettings> {
    const changes = normalised(request);
    const hostProblem = changes.webhookUrl ? this.addressPolicy.hostProblem(changes.webhookUrl) : null;
    if (hostProblem) throw new ServiceError('validation_failed', hostProblem);
    const now = this.clock.now();
    const stream = partnerStream(partnerId);
    const { state } = await this.runner.load(partnerDecider, stream);
    if (!state.partnerId) throw new ServiceError('not_found', `no partner ${partnerId}`);
    // A webhook URL without a secret could not be signed: the first URL comes with a secret.
    const needsSecret =
      request.rotateWebhookSecret === true ||
      (!!changes.webhookUrl && state.settings[environment].webhookSecrets.length === 0);
    if (needsSecret && !options.maySeeSecret)
      throw new ServiceError(
        'role_forbidden',
        'the first webhook URL comes with its signing secret, which only the partner (or an owner) may receive: the partner sets it',
      );
    const plainSecret = needsSecret ? this.secrets.newWebhookSecret() : null;
    const result = await this.runner.handle(
      partnerDecider,
      stream,
      {
        type: 'ConfigurePartner',
        environment,
        changes,
        newSecret: plainSecret ? { secretId: this.secrets.newId('whs'), sealed: this.box.seal(plainSecret) } : null,
        mainKeyUsed: actor.type === 'partner_key' ? actor.id : null,
        at: now.toISOString(),
      },
      {
        metadata: metadata({ partnerId, environment, correlationId: partnerId, actor, at: now }),
        eventId: () => randomUUID(),
      },
    );
    if (!result.ok) throw ServiceError.from(result.error);
    // A new allowlist holds from this answer on, whatever the projection lag: the environment's keys are fenced until it is projected.
    if (changes.ipAllowlist !== undefined && result.position)
      await this.fences.raise({ partnerId, environment, position: result.position, at: now });
    await this.barrier.waitFor(result.position);
    // A lowered limit holds from this answer on: no admission leased under the old one is used after it (decision 0161).
    if (changes.rateLimitPerMinute !== undefined)
      await this.leases.release(partnerId, environment, {
        before: state.settings[environment].rateLimitPerMinute,
        after: result.state.settings[environment].rateLimitPerMinute,
      });
    const settings = environmentSettings(partnerId, environment, result.state.settings[environment], now);
    return { ...settings, newWebhookSecret: plainSecret };
  }
}

function normalised(request: SettingsRequest): SettingsChange {
  const changes: SettingsChange = {};
  if (request.webhookUrl !== undefined) changes.webhookUrl = request.webhookUrl === '' ? null : request.webhookUrl;
  if (request.rateLimitPerMinute !== undefined) changes.rateLimitPerMinute = request.rateLimitPerMinute;
  if (request.rateLimitCeilingPerMinute !== undefined)
    changes.rateLimitCeilingPerMinute = request.rateLimitCeilingPerMinute;
  if (request.lowBalanceThreshold !== undefined) changes.lowBalanceThreshold = request.lowBalanceThreshold;
  if (request.ipAllowlist !== undefined) {
    if (request.ipAllowlist.length > MAX_ALLOWLIST_ENTRIES)
      throw new ServiceError('validation_failed', `ip_allowlist: at most ${MAX_ALLOWLIST_ENTRIES} entries`);
    changes.ipAllowlist = request.ipAllowlist.map((entry) => {
      const cidr = parseCidr(entry);
      if (!cidr)
        throw new ServiceError(
          'validation_failed',
          `ip_allowlist: "${entry}" is not an IPv4 or IPv6 address or CIDR range`,
        );
      return `${cidr.network}/${cidr.prefix}`;
    });
  }
  return changes;
}
