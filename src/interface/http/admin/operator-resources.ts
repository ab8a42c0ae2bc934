import type { CreatedOperator } from '../../../application/back-office/create-operator';
import type { OperatorEntry } from '../../../application/back-office/list-operators';
import type { RevokedOperators } from '../../../application/back-office/revoke-operators';

export const createdOperatorResource = (created: CreatedOperator) => ({
  operator_id: created.operatorId,
  name: created.name,
  role: created.role,
  token: created.token,
  created_at: created.createdAt,
  expires_at: created.expiresAt,
});

const operatorResource = (operator: OperatorEntry) => ({
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

export const operatorListResource = (operators: readonly OperatorEntry[]) => ({
  operators: operators.map(operatorResource),
});

export const revokedOperatorsResource = ({ revoked }: RevokedOperators) => ({
  revoked: revoked.map((token) => ({ operator_id: token.operatorId, name: token.name, revoked_at: token.revokedAt })),
});
