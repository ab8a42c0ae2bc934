import { Decider, accept, refuse } from '../shared/decider';
import { domainError } from '../shared/domain-error';
import { OPERATOR_ID_PREFIX, operatorNameProblem } from './operator-name';
import { OperatorRole } from './operator-role';
import { OperatorEvent } from './operator.events';
import { MAX_TOKEN_DAYS } from './operator-token';

export interface OperatorRecord {
  operatorId: string;
  name: string;
  role: OperatorRole;
  tokenHash: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

export interface OperatorsState {
  /** Every operator ever created, by id. */
  operators: ReadonlyMap<string, OperatorRecord>;
  /** Operator ids by the keyed hash of their token. */
  byTokenHash: ReadonlyMap<string, string>;
}

export type OperatorCommand =
  | {
      type: 'CreateOperator';
      operatorId: string;
      name: string;
      role: OperatorRole;
      tokenHash: string;
      /** Days from `at` until the token stops working (1 to MAX_TOKEN_DAYS). */
      days: number;
      at: string;
    }
  /** `ref`: an operator id (that token), or a name (every token of that name not revoked yet). */
  | { type: 'RevokeOperators'; ref: string; reason: string; at: string }
  /** A token in use found under an older server secret: its hash under the newest. */
  | { type: 'RehashToken'; operatorId: string; tokenHash: string; at: string };

const DAY_MS = 86_400_000;

/** A token works from its creation until it expires or is revoked, whichever comes first. */
export const isActiveAt = (record: OperatorRecord, at: string): boolean =>
  record.revokedAt === null && Date.parse(record.expiresAt) > Date.parse(at);

/**
 * One name is one person. A name may hold several tokens at once (a new one before the old is
 * revoked: rotation), all of one role, so an audit by name always reads as one role; to change a
 * person's role, revoke their tokens first.
 */
function decide(command: OperatorCommand, state: OperatorsState) {
  switch (command.type) {
    case 'CreateOperator': {
      const problem = operatorNameProblem(command.name);
      if (problem) return refuse<OperatorEvent>(domainError('validation_failed', problem));
      if (!Number.isInteger(command.days) || command.days < 1 || command.days > MAX_TOKEN_DAYS)
        return refuse<OperatorEvent>(
          domainError('validation_failed', `expires_in_days: a whole number from 1 to ${MAX_TOKEN_DAYS}`),
        );
      if (state.operators.has(command.operatorId) || state.byTokenHash.has(command.tokenHash))
        return refuse<OperatorEvent>(domainError('invalid_state', 'this operator id or token exists already'));
      const otherRole = [...state.operators.values()].find(
        (record) => record.name === command.name && record.role !== command.role && isActiveAt(record, command.at),
      );
      if (otherRole)
        return refuse<OperatorEvent>(
          domainError(
            'invalid_state',
            `${command.name} holds the role ${otherRole.role} (${otherRole.operatorId}); revoke their tokens before giving them another role`,
          ),
        );
      return accept<OperatorEvent>({
        type: 'OperatorCreated',
        data: {
          operatorId: command.operatorId,
          name: command.name,
          role: command.role,
          tokenHash: command.tokenHash,
          expiresAt: new Date(Date.parse(command.at) + command.days * DAY_MS).toISOString(),
          createdAt: command.at,
        },
      });
    }
    case 'RehashToken':
      return rehash(command, state);
    case 'RevokeOperators': {
      const byId = command.ref.startsWith(OPERATOR_ID_PREFIX);
      const targets = byId
        ? [state.operators.get(command.ref)].filter((record) => record !== undefined)
        : [...state.operators.values()].filter((record) => record.name === command.ref);
      if (targets.length === 0) return refuse<OperatorEvent>(domainError('not_found', `no operator ${command.ref}`));
      const open = targets.filter((record) => record.revokedAt === null);
      if (open.length === 0)
        return refuse<OperatorEvent>(
          domainError('invalid_state', `${command.ref}: ${byId ? 'this token is' : 'every token is'} revoked already`),
        );
      return accept<OperatorEvent>(
        ...open.map((record): OperatorEvent => ({
          type: 'OperatorRevoked',
          data: { operatorId: record.operatorId, name: record.name, reason: command.reason, revokedAt: command.at },
        })),
      );
    }
  }
}

function rehash(command: Extract<OperatorCommand, { type: 'RehashToken' }>, state: OperatorsState) {
  const record = state.operators.get(command.operatorId);
  if (!record || !isActiveAt(record, command.at) || record.tokenHash === command.tokenHash)
    return accept<OperatorEvent>();
  return accept<OperatorEvent>({
    type: 'OperatorTokenRehashed',
    data: { operatorId: command.operatorId, tokenHash: command.tokenHash, rehashedAt: command.at },
  });
}

function evolve(state: OperatorsState, event: OperatorEvent): OperatorsState {
  const operators = new Map(state.operators);
  switch (event.type) {
    case 'OperatorCreated': {
      const { operatorId, name, role, tokenHash, createdAt, expiresAt } = event.data;
      operators.set(operatorId, { operatorId, name, role, tokenHash, createdAt, expiresAt, revokedAt: null });
      return { operators, byTokenHash: new Map(state.byTokenHash).set(tokenHash, operatorId) };
    }
    case 'OperatorRevoked': {
      const record = operators.get(event.data.operatorId);
      if (record) operators.set(record.operatorId, { ...record, revokedAt: event.data.revokedAt });
      return { operators, byTokenHash: state.byTokenHash };
    }
    case 'OperatorTokenRehashed': {
      const record = operators.get(event.data.operatorId);
      if (!record) return state;
      operators.set(record.operatorId, { ...record, tokenHash: event.data.tokenHash });
      const byTokenHash = new Map(state.byTokenHash);
      byTokenHash.delete(record.tokenHash);
      return { operators, byTokenHash: byTokenHash.set(event.data.tokenHash, record.operatorId) };
    }
  }
}

export const operatorsDecider: Decider<OperatorsState, OperatorCommand, OperatorEvent> = {
  initialState: { operators: new Map(), byTokenHash: new Map() },
  decide,
  evolve,
};
