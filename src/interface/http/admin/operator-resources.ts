import type { CreatedOperator } from '../../../application/back-office/create-operator';
import type { OperatorEntry } from '../../../application/back-office/list-operators';
import type { RevokedOperators } from '../../../application/back-office/revoke-operators';
import { OperatorRole } from '../../../domain/back-office/operator-role';

export interface OperatorResource {
  operator_id: string;
  name: string;
  role: OperatorRole;
  status: OperatorEntry['status'];
  created_at: string;
  created_by: string;
  expires_at: string;
  revoked_at: string | null;
  revoked_by: string | null;
  revoke_reason: string | null;
  last_used_at: string | null;
}

export interface OperatorListResource {
  operators: OperatorResource[];
}

export const createdOperatorResource = (created: CreatedOperator) => ({
  operator_id: created.operatorId,
  name: created.name,
  role: created.role,
  token: created.token,
  created_at: created.createdAt,
  expires_at: created.expiresAt,
});

const operatorResource = (operator: OperatorEntry): OperatorResource => ({
  operator_id: operator.operatorId,
  name: operator.name,
  role: operator.role,
  status: operator.status,
  created_at: operator.createdAt,
  created_by: operator.createdBy,
  expires_at: operator.expiresAt,
  revoked_at: operator.revokedAt,
  revoked_by: operator.revokedBy,
  revoke_reason: operator.revokeReason,
  last_used_at: operator.lastUsedAt,
});

export const operatorListResource = (operators: readonly OperatorEntry[]): OperatorListResource => ({
  operators: operators.map(operatorResource),
});

export const revokedOperatorsResource = ({ revoked }: RevokedOperators) => ({
  revoked: revoked.map((token) => ({ operator_id: token.operatorId, name: token.name, revoked_at: token.revokedAt })),
});
