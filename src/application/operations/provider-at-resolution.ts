import { Inject, Injectable } from '@nestjs/common';
import { isAttemptFailure, ProviderAnswerAtResolution } from '../../domain/transaction/transaction.events';
import { CLOCK, Clock } from '../ports/clock.port';
import { ProviderOutcome } from '../ports/provider-gateway.port';
import { OrderRouting } from '../routing/order-routing';
import { OrderLifecycle } from '../settlement/order-lifecycle';
import { providerOrderOf } from '../settlement/provider-answer-commands';

/** Asks a held live order's provider about it as an operator resolves it, a look-up, never a send (decision 0118); null for nothing to ask. */
@Injectable()
export class ProviderAtResolution {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly routing: OrderRouting,
    private readonly lifecycle: OrderLifecycle,
  ) {}

  async ask(orderId: string): Promise<AnswerAtResolution | null> {
    const { state } = await this.lifecycle.load(orderId);
    const order = state.order;
    if (!order || state.status !== 'DISPUTED' || order.environment !== 'live') return null;
    const asked = providerOrderOf(orderId, order, state);
    const askedAt = this.clock.now();
    const neverSent = !state.providerMayHaveIt;
    try {
      const gateway = this.routing.gatewayOf(order.environment, order.route, `order ${orderId}`);
      return { answer: answerOf(await gateway.poll(asked, askedAt), askedAt.toISOString()), neverSent };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return { answer: { word: 'no_answer', detail, askedAt: askedAt.toISOString() }, neverSent };
    }
  }
}

export interface AnswerAtResolution {
  answer: ProviderAnswerAtResolution;
  neverSent: boolean;
}

function answerOf(outcome: ProviderOutcome, askedAt: string): ProviderAnswerAtResolution {
  switch (outcome.status) {
    case 'succeeded':
      return { word: 'succeeded', detail: `operator_ref ${outcome.operatorRef}`, askedAt };
    case 'failed':
      // A refusal of one attempt says nothing of the order at the provider.
      return { word: isAttemptFailure(outcome.basis) ? 'unknown' : 'failed', detail: outcome.reason, askedAt };
    case 'pending':
      return {
        word: 'pending',
        detail: `still processing${outcome.providerReference ? ` (its reference ${outcome.providerReference})` : ''}`,
        askedAt,
      };
    case 'unknown':
      return { word: 'unknown', detail: outcome.reason, askedAt };
    case 'mismatch':
      return { word: 'mismatch', detail: outcome.reason, askedAt };
  }
}
