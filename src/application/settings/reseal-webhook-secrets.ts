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

export interface ResealReport {
  /** Partner environments whose secrets were sealed again (one WebhookSecretsResealed each). */
  environmentsResealed: number;
  secretsResealed: number;
  /** Already under the newest secret: left as they are. */
  secretsCurrent: number;
  /** Sealed under no secret of the ring, or withheld by an export: they sign nothing until rotated. */
  secretsUnreadable: { partnerId: string; environment: Environment; secretId: string }[];
}

export class ResealWebhookSecrets extends Command<ResealReport> {
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

  async execute({ actor }: ResealWebhookSecrets): Promise<ResealReport> {
    const report: ResealReport = {
      environmentsResealed: 0,
      secretsResealed: 0,
      secretsCurrent: 0,
      secretsUnreadable: [],
    };
    for (const { partnerId, environment } of await this.readModels.environmentsWithWebhookSecrets()) {
      const stream = partnerStream(partnerId);
      const { state } = await this.runner.load(partnerDecider, stream);
      const secrets: { secretId: string; sealedSecret: string }[] = [];
      for (const secret of state.settings[environment].webhookSecrets) {
        const resealed = this.resealed(secret.sealed);
        if (resealed === 'current') report.secretsCurrent += 1;
        else if (resealed === null)
          report.secretsUnreadable.push({ partnerId, environment, secretId: secret.secretId });
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
      report.environmentsResealed += 1;
      report.secretsResealed += secrets.length;
    }
    return report;
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
