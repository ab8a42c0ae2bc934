import { OperatorRole } from './operator-role';
import { EventStream, EventTypeTable } from '../shared/event-types';

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

/** A token found under an older server secret of the ring, hashed again under the newest at its use. */
export type OperatorTokenRehashed = {
  type: 'OperatorTokenRehashed';
  data: { operatorId: string; tokenHash: string; rehashedAt: string };
};

export type OperatorEvent = OperatorCreated | OperatorRevoked | OperatorTokenRehashed;

export const OPERATOR_EVENTS: EventTypeTable<OperatorEvent> = {
  OperatorCreated: true,
  OperatorRevoked: true,
  OperatorTokenRehashed: true,
};

/** Every back-office operator in one stream: a few dozen people, read whole and kept folded. */
export const OPERATORS_STREAM_ID = 'back-office-operators';
export const OPERATORS_STREAM: EventStream<OperatorEvent> = { id: OPERATORS_STREAM_ID, holds: OPERATOR_EVENTS };
