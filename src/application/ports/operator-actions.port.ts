import { Environment } from '../../domain/shared/environment';

/** One event an operator caused, as the back-office audit shows it (secrets and hashes left out of `data`). */
export interface OperatorAction {
  position: string;
  streamId: string;
  revision: number;
  eventType: string;
  eventId: string;
  occurredAt: string;
  partnerId: string | null;
  environment: Environment | null;
  correlationId: string;
  data: Record<string, unknown>;
}

/** The events whose actor is a back-office operator, by the operator's name (a read model of the log). */
export interface OperatorActions {
  /** Newest first, at most `limit`. */
  actionsOf(name: string, limit: number): Promise<OperatorAction[]>;
}

export const OPERATOR_ACTIONS = Symbol('OperatorActions');
