import { Inject } from '@nestjs/common';
import { eventOfType } from '../../domain/shared/event-types';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { operatorsDecider } from '../../domain/back-office/operator.decider';
import { OPERATORS_STREAM } from '../../domain/back-office/operator.events';
import { OperatorRole } from '../../domain/back-office/operator-role';
import { Actor } from '../../domain/shared/actor';
import { CLOCK, Clock } from '../ports/clock.port';
import { KEY_HASHER, KeyHasher, SECRET_GENERATOR, SecretGenerator } from '../ports/secrets.port';
import { DeciderRunner } from '../shared/decider-runner';
import { metadata } from '../shared/event-envelope';
import { ServiceError } from '../shared/service-error';

export interface CreatedOperator {
  operatorId: string;
  name: string;
  role: OperatorRole;
  /** Shown once: the service keeps only its HMAC. */
  token: string;
  createdAt: string;
  expiresAt: string;
}

export class CreateOperator extends Command<CreatedOperator> {
  constructor(
    readonly name: string,
    readonly role: OperatorRole,
    readonly days: number,
    readonly createdBy: Actor,
  ) {
    super();
  }
}

@CommandHandler(CreateOperator)
export class CreateOperatorHandler implements ICommandHandler<CreateOperator, CreatedOperator> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SECRET_GENERATOR) private readonly secrets: SecretGenerator,
    @Inject(KEY_HASHER) private readonly hasher: KeyHasher,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({ name, role, days, createdBy }: CreateOperator): Promise<CreatedOperator> {
    const now = this.clock.now();
    const operatorId = this.secrets.newId('opr');
    const token = this.secrets.newOperatorToken();
    const result = await this.runner.handle(
      operatorsDecider,
      OPERATORS_STREAM,
      {
        type: 'CreateOperator',
        operatorId,
        name,
        role,
        tokenHash: this.hasher.hash(token),
        days,
        at: now.toISOString(),
      },
      {
        metadata: metadata({
          partnerId: null,
          environment: null,
          correlationId: operatorId,
          actor: createdBy,
          at: now,
        }),
        eventId: () => randomUUID(),
      },
    );
    if (!result.ok) throw ServiceError.from(result.error);
    const created = eventOfType(result.events[0], 'OperatorCreated');
    return { operatorId, name, role, token, createdAt: created.data.createdAt, expiresAt: created.data.expiresAt };
  }
}
