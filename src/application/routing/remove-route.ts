import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { ProductRef } from '../../domain/routing/route';
import { ROUTES_STREAM } from '../../domain/routing/routing.events';
import { routingDecider } from '../../domain/routing/routing.decider';
import { Actor } from '../../domain/shared/actor';
import { CLOCK, Clock } from '../ports/clock.port';
import { DeciderRunner } from '../shared/decider-runner';
import { ServiceError } from '../shared/service-error';
import { routesMetadata } from './set-routes';

/** A product taken off live. */
export interface RemovedRoute {
  kind: ProductRef['kind'];
  id: number;
  removed: true;
}

export class RemoveRoute extends Command<RemovedRoute> {
  constructor(
    readonly product: ProductRef,
    readonly reason: string,
    readonly operator: Actor,
  ) {
    super();
  }
}

/** Takes a product off live: its new orders answer 503 provider_unavailable; orders already placed keep their route. */
@CommandHandler(RemoveRoute)
export class RemoveRouteHandler implements ICommandHandler<RemoveRoute> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({ product, reason, operator }: RemoveRoute): Promise<RemovedRoute> {
    const now = this.clock.now();
    const result = await this.runner.handle(
      routingDecider,
      ROUTES_STREAM,
      { type: 'RemoveRoute', product, reason, at: now.toISOString() },
      { metadata: routesMetadata(operator, now), eventId: () => randomUUID() },
    );
    if (!result.ok) throw ServiceError.from(result.error);
    return { kind: product.kind, id: product.id, removed: true };
  }
}
