import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { partnerDecider } from '../../domain/partner/partner.decider';
import { partnerStream } from '../../domain/partner/partner.events';
import { Actor } from '../../domain/shared/actor';
import { Environment } from '../../domain/shared/environment';
import { isWithheld } from '../../domain/shared/withheld-secret';
import { CLOCK, Clock } from '../ports/clock.port';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import { SECRET_BOX, SecretBox } from '../ports/webhook.port';
import { DeciderRunner } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';

export interface ResealResource {
  /** Partner environments whose secrets were sealed again (one WebhookSecretsResealed each). */
  environments_resealed: number;
  secrets_resealed: number;
  /** Already under the newest secret: left as they are. */
  secrets_current: number;
  /** Sealed under no secret of the ring, or withheld by an export: they sign nothing until rotated. */
  secrets_unreadable: { partner_id: string; environment: Environment; secret_id: string }[];
}

export class ResealWebhookSecrets extends Command<ResealResource> {
  constructor(readonly actor: Actor) {
    super();
  }
}

/**
 * Seals every webhook secret again under the newest server secret (API_KEY_SECRETS' first), so
 * the older ones can be dropped. Each partner environment's secrets are read from its stream and
 * resealed in one event; running it again reseals nothing more.
 */
@CommandHandler(ResealWebhookSecrets)
export class ResealWebhookSecretsHandler implements ICommandHandler<ResealWebhookSecrets> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({ actor }: ResealWebhookSecrets): Promise<ResealResource> {
    const resource: ResealResource = {
      environments_resealed: 0,
      secrets_resealed: 0,
      secrets_current: 0,
      secrets_unreadable: [],
    };
    for (const { partnerId, environment } of await this.readModels.environmentsWithWebhookSecrets()) {
      const stream = partnerStream(partnerId);
      const { state } = await this.runner.load(partnerDecider, stream);
      const secrets: { secretId: string; sealedSecret: string }[] = [];
      for (const secret of state.settings[environment].webhookSecrets) {
        const resealed = this.resealed(secret.sealed);
        if (resealed === 'current') resource.secrets_current += 1;
        else if (resealed === null)
          resource.secrets_unreadable.push({ partner_id: partnerId, environment, secret_id: secret.secretId });
        else secrets.push({ secretId: secret.secretId, sealedSecret: resealed.sealed });
      }
      if (secrets.length === 0) continue;
      const now = this.clock.now();
      await this.runner.handle(
        partnerDecider,
        stream,
        { type: 'ResealWebhookSecrets', environment, secrets, at: now.toISOString() },
        {
          metadata: metadata({ partnerId, environment, correlationId: partnerId, actor, at: now }),
          eventId: () => randomUUID(),
        },
      );
      resource.environments_resealed += 1;
      resource.secrets_resealed += secrets.length;
    }
    return resource;
  }

  /** The secret sealed under the newest server secret; `current` if it is already, null if it opens under none. */
  private resealed(sealed: string): { sealed: string } | 'current' | null {
    if (isWithheld(sealed)) return null;
    if (this.box.sealedUnderNewest(sealed)) return 'current';
    try {
      return { sealed: this.box.seal(this.box.open(sealed)) };
    } catch {
      return null;
    }
  }
}
