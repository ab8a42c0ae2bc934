import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { partnerDecider } from '../../domain/partner/partner.decider';
import { partnerStream } from '../../domain/partner/partner.events';
import { systemActor } from '../../domain/shared/actor';
import { ApiKeyView } from '../ports/read-models.port';
import { DeciderRunner } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';

const REHASH_KEYS = 'rehash-keys';

/**
 * Hashes a key found under an older server secret again under the newest (ApiKeyRehashed), at its
 * use: only then is the key itself at hand. Once per key and process (the read models apply the new
 * hash a moment later). A failure is logged and the request goes on: the key is hashed at a later use.
 */
@Injectable()
export class KeyRehash {
  private readonly logger = new Logger('KeyRehash');
  private readonly seen = new Set<string>();

  constructor(private readonly runner: DeciderRunner) {}

  async onUse(key: ApiKeyView, keyHash: string, now: Date): Promise<void> {
    if (this.seen.has(key.keyId)) return;
    this.seen.add(key.keyId);
    const result = await this.runner
      .handle(
        partnerDecider,
        partnerStream(key.partnerId),
        { type: 'RehashKey', keyId: key.keyId, environment: key.environment, keyHash, at: now.toISOString() },
        {
          metadata: metadata({
            partnerId: key.partnerId,
            environment: key.environment,
            correlationId: key.keyId,
            actor: systemActor(REHASH_KEYS),
            at: now,
          }),
          eventId: () => randomUUID(),
        },
      )
      .catch((error: unknown) => ({ ok: false as const, error }));
    if (!result.ok) {
      this.seen.delete(key.keyId);
      this.logger.warn(`key ${key.keyId} of ${key.partnerId} was not hashed again under the newest server secret`);
    }
  }
}
