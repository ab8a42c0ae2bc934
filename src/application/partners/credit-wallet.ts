import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { currencyOf } from '../../domain/corridor/corridor';
import { Money } from '../../domain/money/money';
import { Actor } from '../../domain/shared/actor';
import { Environment } from '../../domain/shared/environment';
import { WalletCredited } from '../../domain/wallet/wallet.events';
import { CLOCK, Clock } from '../ports/clock.port';
import { PROJECTION_BARRIER, ProjectionBarrier, READ_MODELS, ReadModels } from '../ports/read-models.port';
import { SECRET_GENERATOR, SecretGenerator } from '../ports/secrets.port';
import { metadata } from '../shared/event-envelope';
import { deterministicEventId } from '../shared/event-ids';
import { ServiceError } from '../shared/service-error';
import { WalletCommandProcessor } from '../wallets/wallet-command-processor';

export class CreditWallet extends Command<Record<string, unknown>> {
  constructor(
    readonly partnerId: string,
    readonly environment: Environment,
    readonly amount: string,
    readonly reference: string,
    readonly operator: Actor,
  ) {
    super();
  }
}

/** Funding recorded by an operator (a bank transfer received for live, extra test money for sandbox). */
@CommandHandler(CreditWallet)
export class CreditWalletHandler implements ICommandHandler<CreditWallet> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(PROJECTION_BARRIER) private readonly barrier: ProjectionBarrier,
    @Inject(SECRET_GENERATOR) private readonly secrets: SecretGenerator,
    private readonly wallets: WalletCommandProcessor,
  ) {}

  async execute(command: CreditWallet): Promise<Record<string, unknown>> {
    const partner = await this.readModels.partner(command.partnerId);
    if (!partner) throw new ServiceError('not_found', `no partner ${command.partnerId}`);
    const currency = currencyOf(partner.corridor);
    const amount = Money.parse(command.amount, currency);
    if (!amount || !amount.isPositive()) {
      throw new ServiceError('validation_failed', `amount: a positive decimal with at most 2 decimal places, in ${currency}`);
    }
    const now = this.clock.now();
    const creditId = this.secrets.newId('crd');
    const result = await this.wallets.execute(partner.partnerId, command.environment, {
      command: { type: 'CreditWallet', creditId, amount, kind: 'funding', reference: command.reference, at: now.toISOString() },
      eventId: deterministicEventId(creditId),
      metadata: metadata({ partnerId: partner.partnerId, environment: command.environment, correlationId: creditId, actor: command.operator, at: now }),
    });
    if (!result.ok) throw ServiceError.from(result.error);
    await this.barrier.waitFor(result.position);
    const credited = result.event as WalletCredited;
    return {
      partner_id: partner.partnerId,
      environment: command.environment,
      credit_id: creditId,
      amount: credited.data.amount,
      available: credited.data.balanceAfter,
      currency,
      reference: command.reference,
    };
  }
}
