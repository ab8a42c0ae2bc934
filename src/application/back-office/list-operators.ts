import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { OPERATORS_STREAM } from '../../domain/back-office/operator.events';
import { OperatorRole } from '../../domain/back-office/operator-role';
import { CLOCK, Clock } from '../ports/clock.port';
import { EVENT_STORE, EventStore } from '../ports/event-store.port';
import { OPERATOR_TOKEN_USAGE, OperatorTokenUsage } from '../ports/operator-token-usage.port';

export interface OperatorRow {
  operator_id: string;
  name: string;
  role: OperatorRole;
  status: 'active' | 'expired' | 'revoked';
  created_at: string;
  created_by: string;
  expires_at: string;
  revoked_at: string | null;
  revoked_by: string | null;
  revoke_reason: string | null;
  /** The latest request the token was let in on (to within a few seconds); null if never used. */
  last_used_at: string | null;
}

export interface BackOfficeOperatorsResource {
  operators: OperatorRow[];
}

export class ListOperators extends Query<BackOfficeOperatorsResource> {}

/** Every operator token ever created, oldest first, with its creator, revoker and last use (never the token or its hash). */
@QueryHandler(ListOperators)
export class ListOperatorsHandler implements IQueryHandler<ListOperators> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(OPERATOR_TOKEN_USAGE) private readonly usage: OperatorTokenUsage,
  ) {}

  async execute(): Promise<BackOfficeOperatorsResource> {
    const rows = new Map<string, OperatorRow>();
    for (const event of await this.store.readStream(OPERATORS_STREAM)) {
      const by = event.metadata.actor.id;
      if (event.type === 'OperatorCreated') {
        const { operatorId, name, role, createdAt, expiresAt } = event.data;
        rows.set(operatorId, {
          operator_id: operatorId,
          name,
          role,
          status: 'active',
          created_at: createdAt,
          created_by: by,
          expires_at: expiresAt,
          revoked_at: null,
          revoked_by: null,
          revoke_reason: null,
          last_used_at: null,
        });
      } else if (event.type === 'OperatorRevoked') {
        const row = rows.get(event.data.operatorId);
        if (row)
          Object.assign(row, { revoked_at: event.data.revokedAt, revoked_by: by, revoke_reason: event.data.reason });
      }
    }
    const now = this.clock.now().getTime();
    const lastUses = await this.usage.lastUses([...rows.keys()]);
    const operators = [...rows.values()].map((row) => ({
      ...row,
      last_used_at: lastUses.get(row.operator_id)?.toISOString() ?? null,
      status:
        row.revoked_at !== null
          ? ('revoked' as const)
          : Date.parse(row.expires_at) <= now
            ? ('expired' as const)
            : ('active' as const),
    }));
    return { operators };
  }
}
