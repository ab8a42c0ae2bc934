import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { OPERATORS_STREAM } from '../../domain/back-office/operator.events';
import { OperatorRole } from '../../domain/back-office/operator-role';
import { CLOCK, Clock } from '../ports/clock.port';
import { EVENT_STORE, EventStore } from '../ports/event-store.port';
import { OPERATOR_TOKEN_USAGE, OperatorTokenUsage } from '../ports/operator-token-usage.port';

/** An operator token: its holder and role, who created and revoked it, and its last use (never the token). */
export interface OperatorEntry {
  operatorId: string;
  name: string;
  role: OperatorRole;
  status: 'active' | 'expired' | 'revoked';
  createdAt: string;
  createdBy: string;
  expiresAt: string;
  revokedAt: string | null;
  revokedBy: string | null;
  revokeReason: string | null;
  /** The latest request the token was let in on (to within a few seconds); null if never used. */
  lastUsedAt: string | null;
}

export class ListOperators extends Query<OperatorEntry[]> {}

/** Every operator token ever created, oldest first, with its creator, revoker and last use (never the token or its hash). */
@QueryHandler(ListOperators)
export class ListOperatorsHandler implements IQueryHandler<ListOperators> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(OPERATOR_TOKEN_USAGE) private readonly usage: OperatorTokenUsage,
  ) {}

  async execute(): Promise<OperatorEntry[]> {
    const rows = new Map<string, OperatorEntry>();
    for (const event of await this.store.readStream(OPERATORS_STREAM)) {
      const by = event.metadata.actor.id;
      if (event.type === 'OperatorCreated') {
        const { operatorId, name, role, createdAt, expiresAt } = event.data;
        rows.set(operatorId, {
          operatorId,
          name,
          role,
          status: 'active',
          createdAt,
          createdBy: by,
          expiresAt,
          revokedAt: null,
          revokedBy: null,
          revokeReason: null,
          lastUsedAt: null,
        });
      } else if (event.type === 'OperatorRevoked') {
        const row = rows.get(event.data.operatorId);
        if (row)
          Object.assign(row, { revokedAt: event.data.revokedAt, revokedBy: by, revokeReason: event.data.reason });
      }
    }
    const now = this.clock.now().getTime();
    const lastUses = await this.usage.lastUses([...rows.keys()]);
    return [...rows.values()].map((row): OperatorEntry => ({
      ...row,
      lastUsedAt: lastUses.get(row.operatorId)?.toISOString() ?? null,
      status: row.revokedAt !== null ? 'revoked' : Date.parse(row.expiresAt) <= now ? 'expired' : 'active',
    }));
  }
}
