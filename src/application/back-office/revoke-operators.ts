import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { operatorsDecider } from '../../domain/back-office/operator.decider';
import { OPERATORS_STREAM, OperatorRevoked } from '../../domain/back-office/operator.events';
import { Actor } from '../../domain/shared/actor';
import { CLOCK, Clock } from '../ports/clock.port';
import { DeciderRunner } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';
import { ServiceError } from '../shared/service-error';

export interface RevokedOperators {
  revoked: { operatorId: string; name: string; revokedAt: string }[];
}

export class RevokeOperators extends Command<RevokedOperators> {
  constructor(
    /** An operator id (one token) or a name (every token of that person not revoked yet). */
    readonly ref: string,
    readonly reason: string,
    readonly revokedBy: Actor,
  ) {
    super();
  }
}

/** Revokes tokens: once the append returns, every process refuses them at its next request (OperatorDirectory reads the stream head). */
@CommandHandler(RevokeOperators)
export class RevokeOperatorsHandler implements ICommandHandler<RevokeOperators, RevokedOperators> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({ ref, reason, revokedBy }: RevokeOperators): Promise<RevokedOperators> {
    const now = this.clock.now();
    const result = await this.runner.handle(
      operatorsDecider,
      OPERATORS_STREAM,
      { type: 'RevokeOperators', ref, reason, at: now.toISOString() },
      {
        metadata: metadata({ partnerId: null, environment: null, correlationId: ref, actor: revokedBy, at: now }),
        eventId: () => randomUUID(),
      },
    );
    if (!result.ok) throw ServiceError.from(result.error);
    return {
      revoked: result.events
        .filter((event): event is OperatorRevoked => event.type === 'OperatorRevoked')
        .map(({ data }) => ({ operatorId: data.operatorId, name: data.name, revokedAt: data.revokedAt })),
    };
  }
}
