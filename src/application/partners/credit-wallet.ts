import { createHash } from 'node:crypto';
import { eventOfType } from '../../domain/shared/event-types';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { currencyOf } from '../../domain/corridor/corridor';
import { Currency } from '../../domain/money/currency';
import { Money } from '../../domain/money/money';
import { Actor } from '../../domain/shared/actor';
import { Environment } from '../../domain/shared/environment';
import { WalletCredited } from '../../domain/wallet/wallet.events';
import { CLOCK, Clock } from '../ports/clock.port';
import { oneOf } from '../ports/event-store.port';
import { EVENTS_BY_CORRELATION, EventsByCorrelation } from '../ports/events-by-correlation.port';
import { PROJECTION_BARRIER, ProjectionBarrier, READ_MODELS, ReadModels } from '../ports/read-models.port';
import { SECRET_GENERATOR, SecretGenerator } from '../ports/secrets.port';
import { metadata } from '../shared/event-envelope';
import { deterministicEventId } from '../shared/event-ids';
import { ServiceError } from '../shared/service-error';
import { storedEvent } from '../shared/stored-event';
import { WalletCommandProcessor } from '../wallets/wallet-command-processor';

export class CreditWallet extends Command<CreditAnswer> {
  constructor(
    readonly partnerId: string,
    readonly environment: Environment,
    readonly amount: string,
    readonly reference: string,
    readonly operator: Actor,
    /** When given, the same key and body credit once, whatever the number of tries. */
    readonly idempotencyKey: string | null = null,
  ) {
    super();
  }
}

/** A credit: what was credited, and the balance after it (decimal strings). */
export interface WalletCredit {
  partnerId: string;
  environment: Environment;
  creditId: string;
  amount: string;
  available: string;
  currency: Currency;
  reference: string;
}

/** The answer to a credit, and whether it is the answer of an earlier try with the same Idempotency-Key. */
export interface CreditAnswer {
  credit: WalletCredit;
  replayed: boolean;
}

/** Funding recorded by an operator (a bank transfer received for live, extra test money for sandbox). */
@CommandHandler(CreditWallet)
export class CreditWalletHandler implements ICommandHandler<CreditWallet, CreditAnswer> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(PROJECTION_BARRIER) private readonly barrier: ProjectionBarrier,
    @Inject(SECRET_GENERATOR) private readonly secrets: SecretGenerator,
    private readonly wallets: WalletCommandProcessor,
    @Inject(EVENTS_BY_CORRELATION) private readonly events: EventsByCorrelation,
  ) {}

  async execute(command: CreditWallet): Promise<CreditAnswer> {
    const partner = await this.readModels.partner(command.partnerId);
    if (!partner) throw new ServiceError('not_found', `no partner ${command.partnerId}`);
    const currency = currencyOf(partner.corridor);
    const amount = Money.parse(command.amount, currency);
    if (!amount?.isPositive()) {
      throw new ServiceError(
        'validation_failed',
        `amount: a positive decimal with at most 2 decimal places, in ${currency}`,
      );
    }
    const key = command.idempotencyKey;
    // A keyed credit has an id fixed by the key, so its event id is too: the log stores it once.
    const creditId = key ? keyedCreditId(partner.partnerId, command.environment, key) : this.secrets.newId('crd');
    if (key) {
      const earlier = await this.earlierCredit(creditId);
      if (earlier) return this.replay(command, amount, earlier);
    }
    const now = this.clock.now();
    const result = await this.wallets.execute(partner.partnerId, command.environment, {
      command: {
        type: 'CreditWallet',
        creditId,
        amount,
        kind: 'funding',
        reference: command.reference,
        at: now.toISOString(),
      },
      eventId: deterministicEventId(creditId),
      metadata: metadata({
        partnerId: partner.partnerId,
        environment: command.environment,
        correlationId: creditId,
        actor: command.operator,
        at: now,
      }),
    });
    if (!result.ok) throw ServiceError.from(result.error);
    if (result.deduplicated) {
      // Another try with the same key was stored first: its credit is the one to answer with.
      const earlier = await this.earlierCredit(creditId);
      if (!earlier) throw new Error(`credit ${creditId} was stored but cannot be read`);
      return this.replay(command, amount, earlier);
    }
    await this.barrier.waitFor(result.position);
    return { credit: creditOf(command, eventOfType(result.event, 'WalletCredited')), replayed: false };
  }

  private async earlierCredit(creditId: string): Promise<WalletCredited | null> {
    const stored = await storedEvent(this.events, creditId, deterministicEventId(creditId));
    return stored ? oneOf({ WalletCredited: true }, stored) : null;
  }

  private async replay(command: CreditWallet, amount: Money, earlier: WalletCredited): Promise<CreditAnswer> {
    if (earlier.data.amount !== amount.toDecimal() || earlier.data.reference !== command.reference) {
      throw new ServiceError(
        'idempotency_conflict',
        'this Idempotency-Key was already used for a credit with another amount or reference',
      );
    }
    return { credit: creditOf(command, earlier), replayed: true };
  }
}

/** The id of the credit an Idempotency-Key names, for one partner's wallet in one environment. */
const keyedCreditId = (partnerId: string, environment: Environment, key: string): string =>
  `crd_${createHash('sha256')
    .update(JSON.stringify([partnerId, environment, key]))
    .digest('hex')
    .slice(0, 24)}`;

const creditOf = (command: CreditWallet, credited: WalletCredited): WalletCredit => ({
  partnerId: command.partnerId,
  environment: command.environment,
  creditId: credited.data.creditId,
  amount: credited.data.amount,
  available: credited.data.balanceAfter,
  currency: credited.data.currency,
  reference: credited.data.reference,
});
