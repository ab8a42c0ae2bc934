import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../ports/clock.port';
import { KEY_USAGE, KeyUsage } from '../ports/key-usage.port';
import { Caller } from './caller';
import { countKeyRefusal } from './count-key-refusal';
import { requireMainKey } from './key-scope';

/**
 * What only the environment's main key may do (keys, settings, webhook re-sends). A restricted key is refused
 * (403 scope_forbidden), and the refusal is counted in its `refusals_last_24h`, as its order refusals are: a
 * restricted key probing the key and settings routes shows in its listing.
 */
@Injectable()
export class MainKeyRequirement {
  constructor(
    @Inject(KEY_USAGE) private readonly usage: KeyUsage,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async check(caller: Caller, what: string): Promise<void> {
    try {
      requireMainKey(caller, what);
    } catch (error) {
      await countKeyRefusal(this.usage, { keyId: caller.keyId, code: 'scope_forbidden', at: this.clock.now() });
      throw error;
    }
  }
}
