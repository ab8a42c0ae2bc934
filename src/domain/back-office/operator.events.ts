import { OperatorRole } from './operator-role';

/** Only the keyed hash of the token is recorded; the token itself is shown once and forgotten. */
export type OperatorCreated = {
  type: 'OperatorCreated';
  data: {
    operatorId: string;
    name: string;
    role: OperatorRole;
    tokenHash: string;
    expiresAt: string;
    createdAt: string;
  };
};

export type OperatorRevoked = {
  type: 'OperatorRevoked';
  data: { operatorId: string; name: string; reason: string; revokedAt: string };
};

export type OperatorEvent = OperatorCreated | OperatorRevoked;

export const OPERATOR_EVENT_TYPES: ReadonlySet<string> = new Set(['OperatorCreated', 'OperatorRevoked']);

/** Every back-office operator in one stream: a few dozen people, read whole and kept folded. */
export const OPERATORS_STREAM_ID = 'back-office-operators';
