import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Money } from '../../domain/money/money';
import { walletStream } from '../../domain/wallet/wallet.stream';
import { Caller } from '../auth/caller';
import { EVENT_STORE, EventStore } from '../ports/event-store.port';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';

/** The wallet of the key's environment: what is available, in the corridor currency, and when it last changed. */
export interface WalletBalance {
  available: Money;
  updatedAt: string;
}

export class GetBalance extends Query<WalletBalance> {
  constructor(readonly caller: Caller) {
    super();
  }
}

/**
 * The balance after the wallet's newest event, read from the log, so it
 * includes every debit whose request has been answered, in any process, at once. A wallet with
 * no events yet reads as zero, unchanged since the partner was onboarded.
 */
@QueryHandler(GetBalance)
export class GetBalanceHandler implements IQueryHandler<GetBalance, WalletBalance> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
  ) {}

  async execute({ caller }: GetBalance): Promise<WalletBalance> {
    const newest = await this.store.readLastEvent(walletStream(caller.partnerId, caller.environment));
    const balanceAfter = newest ? Money.parse(newest.data.balanceAfter, caller.currency) : Money.zero(caller.currency);
    if (!balanceAfter)
      throw new Error(
        `the newest event of the ${caller.environment} wallet of ${caller.partnerId} carries no readable balance`,
      );
    const updatedAt =
      newest?.metadata.occurredAt ??
      (await this.readModels.partner(caller.partnerId))?.createdAt ??
      new Date(0).toISOString();
    return { available: balanceAfter, updatedAt };
  }
}
