import { Inject, Injectable } from '@nestjs/common';
import { Corridor, currencyOf } from '../../domain/corridor/corridor';
import { Money } from '../../domain/money/money';
import { systemActor } from '../../domain/shared/actor';
import { CLOCK, Clock } from '../ports/clock.port';
import { PROJECTION_BARRIER, ProjectionBarrier } from '../ports/read-models.port';
import { metadata } from '../shared/event-envelope';
import { deterministicEventId } from '../shared/event-ids';
import { ServiceError } from '../shared/service-error';
import { WalletCommandProcessor } from '../wallets/wallet-command-processor';

export const SANDBOX_STARTING_CREDIT = '1000.00';

/** The 1,000 test credit of a new sandbox wallet. Its event id is fixed per partner, so it is granted once. */
@Injectable()
export class SandboxGrant {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PROJECTION_BARRIER) private readonly barrier: ProjectionBarrier,
    private readonly wallets: WalletCommandProcessor,
  ) {}

  async ensure(partnerId: string, corridor: Corridor, causationId: string): Promise<void> {
    const now = this.clock.now();
    const amount = Money.parse(SANDBOX_STARTING_CREDIT, currencyOf(corridor));
    if (!amount) throw new Error('unreadable sandbox credit');
    const result = await this.wallets.execute(partnerId, 'sandbox', {
      command: {
        type: 'CreditWallet',
        creditId: `grant-${partnerId}`,
        amount,
        kind: 'sandbox_grant',
        reference: 'sandbox starting credit',
        at: now.toISOString(),
      },
      eventId: deterministicEventId(partnerId, 'sandbox-grant'),
      metadata: metadata({
        partnerId,
        environment: 'sandbox',
        correlationId: partnerId,
        causationId,
        actor: systemActor('onboarding'),
        at: now,
      }),
    });
    if (!result.ok) throw ServiceError.from(result.error);
    await this.barrier.waitFor(result.position);
  }
}
