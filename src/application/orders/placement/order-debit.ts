import { Inject, Injectable, Optional } from '@nestjs/common';
import { eventOfType } from '../../../domain/shared/event-types';
import { Money } from '../../../domain/money/money';
import { WalletDebited, WalletEvent } from '../../../domain/wallet/wallet.events';
import { WalletCommand, walletDecider } from '../../../domain/wallet/wallet.decider';
import { Decision } from '../../../domain/shared/decider';
import { capsOf } from '../../auth/key-scope';
import { OrderProduct } from '../../../domain/wallet/order-product';
import { RouteTarget } from '../../../domain/routing/route';
import { Caller } from '../../auth/caller';
import { CLOCK, Clock } from '../../ports/clock.port';
import { KeyBinding, OpenedStream } from '../../ports/key-binding-append.port';
import { EVENTS_BY_CORRELATION, EventsByCorrelation } from '../../ports/events-by-correlation.port';
import { IDEMPOTENCY_WINDOW_MS, IdempotencyScope, KeyAnswer } from '../../ports/idempotency-store.port';
import { debitOfOrder } from '../debit-of-order';
import { debitEventId } from '../debit-event-id';
import { metadata } from '../../shared/event-envelope';
import { WalletCommandProcessor, WalletCommandResult } from '../../wallets/wallet-command-processor';
import { ORDER_ANSWER_WRITER, OrderAnswerWriter } from '../../ports/order-answer-writer.port';
import { initiatedOrderOf } from '../../../domain/transaction/order-view';
import { OrderRouting } from '../../routing/order-routing';
import { FinalProviderOutcome, ProviderGateway } from '../../ports/provider-gateway.port';
import { answeredAtPlacementMetadata, orderStreamAnsweredAtPlacement } from '../../settlement/answered-at-placement';

/** What a valid request asks to debit. */
export interface OrderDraft {
  amount: Money;
  reference: string | null;
  product: OrderProduct;
  /** Where a live order goes; set by the placement once the route is known, null in the sandbox. */
  route?: RouteTarget | null;
}

/** The body is kept as sent, so a replay is byte-for-byte the first answer. */
export interface PlacementAnswer {
  body: string;
  replayed: boolean;
}

/** The key to bind in the debit's own commit, and what it is bound for. */
export interface KeyToBind {
  scope: IdempotencyScope;
  requestHash: string;
}

/** What a debit did, and, when it bound a key, the answer bound with it (as it is to be sent). */
export interface DebitOutcome {
  result: WalletCommandResult;
  boundAnswer: string | null;
}

/**
 * The debit that places an order: one wallet command whose event carries the order, and the
 * lookups both ways of holding an Idempotency-Key share (the answer, an earlier debit).
 */
@Injectable()
export class OrderDebit {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EVENTS_BY_CORRELATION) private readonly events: EventsByCorrelation,
    private readonly wallets: WalletCommandProcessor,
    private readonly routing: OrderRouting,
    @Optional() @Inject(ORDER_ANSWER_WRITER) private readonly answers: OrderAnswerWriter | null,
  ) {}

  /** The 200 answer of a placed order, made from its debit event. */
  answerOf(debited: WalletDebited): string {
    return this.writer().placed(initiatedOrderOf(debited.data));
  }

  /** The 200 answer of a dry run whose debit would be `debited`. */
  dryRunAnswerOf(debited: WalletDebited): string {
    return this.writer().dryRun(initiatedOrderOf(debited.data));
  }

  /** Only processes that place orders bind a writer (the HTTP service, its MCP endpoint). */
  private writer(): OrderAnswerWriter {
    if (!this.answers) throw new Error('no order answer writer is bound in this process');
    return this.answers;
  }

  /**
   * Debits the wallet for the order; with `bind`, the key and its answer are written in the same commit, and so is
   * the order's own stream with its provider's answer when that answer is known without a call (the partner's
   * answer still says PENDING: the order is settled after the answer, as if in no time).
   */
  async run(
    caller: Caller,
    orderId: string,
    idempotencyKey: string,
    draft: OrderDraft,
    bind?: KeyToBind,
  ): Promise<DebitOutcome> {
    const now = this.clock.now();
    let boundAnswer: string | null = null;
    const answer = bind ? this.answerWithoutCall(caller, orderId, draft, now) : null;
    const result = await this.wallets.execute(caller.partnerId, caller.environment, {
      command: debitCommand(caller, orderId, idempotencyKey, draft, now, answer !== null),
      eventId: debitEventId(orderId),
      metadata: metadata({
        partnerId: caller.partnerId,
        environment: caller.environment,
        correlationId: orderId,
        causationId: caller.requestId,
        actor: { type: 'partner_key', id: caller.keyId },
        at: now,
      }),
      keyFor: bind
        ? (event: WalletEvent) => {
            boundAnswer = this.answerOf(eventOfType(event, 'WalletDebited'));
            return keyBinding(bind, orderId, now);
          }
        : undefined,
      opens: answer ? opensAnsweredOrder(caller, orderId, answer, now) : undefined,
    });
    return { result, boundAnswer };
  }

  /** The order's final answer if its provider gives it without a call (the sandbox's instant outcomes). */
  private answerWithoutCall(
    caller: Caller,
    orderId: string,
    draft: OrderDraft,
    now: Date,
  ): FinalProviderOutcome | null {
    const route = draft.route ?? null;
    let gateway: ProviderGateway;
    try {
      gateway = this.routing.gatewayOf(caller.environment, route, `order ${orderId}`);
    } catch {
      // Not routable now: left to its submission, which records why it was not sent.
      return null;
    }
    if (!gateway.answerWithoutCall) return null;
    return gateway.answerWithoutCall({
      orderId,
      amount: draft.amount.toDecimal(),
      currency: draft.amount.currency,
      product: draft.product,
      placedAt: now.toISOString(),
      route,
    });
  }

  /** What the debit would decide now, against the wallet as it is, writing nothing (a dry run). */
  async preview(caller: Caller, idempotencyKey: string, draft: OrderDraft): Promise<Decision<WalletEvent>> {
    const state = await this.wallets.current(caller.partnerId, caller.environment);
    return walletDecider.decide(debitCommand(caller, 'dry-run', idempotencyKey, draft, this.clock.now()), state);
  }

  /** The answer a repeat of a key's request gets: as stored, or made again from the order's debit, as the first was. */
  async replayOf(answer: KeyAnswer): Promise<string> {
    if (answer.kind === 'stored') return answer.response.body;
    const debit = await this.earlier(answer.orderId);
    // The key was bound in the commit that stored the debit: a key without its debit is a damaged database.
    if (!debit) throw new Error(`order ${answer.orderId} holds an Idempotency-Key but its debit cannot be read`);
    return this.answerOf(debit);
  }

  /** The order as its debit event recorded it, if the order was debited. */
  async earlier(orderId: string): Promise<WalletDebited | null> {
    const debit = await debitOfOrder(this.events, orderId);
    return debit ? { type: 'WalletDebited', data: debit.data } : null;
  }
}

function debitCommand(
  caller: Caller,
  orderId: string,
  idempotencyKey: string,
  draft: OrderDraft,
  now: Date,
  answeredWithDebit = false,
): WalletCommand {
  const command: WalletCommand = {
    type: 'DebitWallet',
    orderId,
    amount: draft.amount,
    reference: draft.reference,
    idempotencyKey,
    product: draft.product,
    route: draft.route ?? null,
    keyCaps: capsOf(caller),
    at: now.toISOString(),
  };
  return answeredWithDebit ? { ...command, answeredWithDebit } : command;
}

/**
 * The order's own stream, opened in the debit's commit for an answer known at placement. Its metadata is taken
 * now, in the placing request's context (its trace): the group commit that calls back may run in another's.
 */
function opensAnsweredOrder(
  caller: Caller,
  orderId: string,
  answer: FinalProviderOutcome,
  now: Date,
): (event: WalletEvent) => OpenedStream[] {
  const recorded = answeredAtPlacementMetadata(orderId, caller, now);
  return (event) => [orderStreamAnsweredAtPlacement(eventOfType(event, 'WalletDebited'), caller, answer, recorded)];
}

function keyBinding(bind: KeyToBind, orderId: string, now: Date): KeyBinding {
  return {
    partnerId: bind.scope.partnerId,
    environment: bind.scope.environment,
    key: bind.scope.key,
    requestHash: bind.requestHash,
    orderId,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_WINDOW_MS).toISOString(),
  };
}
