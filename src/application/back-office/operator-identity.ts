import { BREAK_GLASS_NAME } from '../../domain/back-office/operator-name';
import { OperatorRole } from '../../domain/back-office/operator-role';
import { Actor } from '../../domain/shared/actor';

export interface OperatorIdentity {
  name: string;
  role: OperatorRole;
  /** Null for the break-glass token. */
  operatorId: string | null;
  /** Null for the break-glass token, which does not expire. */
  expiresAt: string | null;
  breakGlass: boolean;
}

/** ADMIN_TOKEN: the owner's break-glass credential, recorded under a name no operator can take. */
export const BREAK_GLASS_IDENTITY: OperatorIdentity = {
  name: BREAK_GLASS_NAME,
  role: 'owner',
  operatorId: null,
  expiresAt: null,
  breakGlass: true,
};

/** The actor recorded on the events an operator causes: always the token's operator, never a typed name. */
export const actorOf = (identity: OperatorIdentity): Actor => ({ type: 'operator', id: identity.name });

/** Who did an action that is not an event, as the back-office action log records it. */
export const actingOperator = (
  identity: OperatorIdentity,
): { operator: string; operatorId: string | null; role: OperatorRole } => ({
  operator: identity.name,
  operatorId: identity.operatorId,
  role: identity.role,
});
