import { isWithheld, withheldSecret } from '../../domain/shared/withheld-secret';
import { HistoricalEvent } from '../ports/event-store.port';

export interface WithheldCounts {
  apiKeyHashes: number;
  operatorTokenHashes: number;
  webhookSecrets: number;
}

/** The field of each event type that holds a key hash or a sealed secret, and what it is counted as. */
const SECRET_FIELDS: Readonly<Record<string, { field: string; counted: keyof WithheldCounts }>> = {
  ApiKeyIssued: { field: 'keyHash', counted: 'apiKeyHashes' },
  ScopedKeyCreated: { field: 'keyHash', counted: 'apiKeyHashes' },
  OperatorCreated: { field: 'tokenHash', counted: 'operatorTokenHashes' },
  WebhookSecretRotated: { field: 'sealedSecret', counted: 'webhookSecrets' },
};

/** The event with its key hash or sealed secret, if it has one, replaced by the withheld marker. */
export function withSecretsWithheld(event: HistoricalEvent): HistoricalEvent {
  const secret = SECRET_FIELDS[event.type];
  if (!secret || !(secret.field in event.data)) return event;
  return { ...event, data: { ...event.data, [secret.field]: withheldSecret(event.eventId) } };
}

export const noneWithheld = (): WithheldCounts => ({ apiKeyHashes: 0, operatorTokenHashes: 0, webhookSecrets: 0 });

/** Counts the event in `counts` if its secret was withheld by the export it comes from. */
export function countWithheld(event: HistoricalEvent, counts: WithheldCounts): void {
  const secret = SECRET_FIELDS[event.type];
  if (secret && isWithheld(event.data[secret.field])) counts[secret.counted] += 1;
}
