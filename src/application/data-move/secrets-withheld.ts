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
  ApiKeyRehashed: { field: 'keyHash', counted: 'apiKeyHashes' },
  OperatorTokenRehashed: { field: 'tokenHash', counted: 'operatorTokenHashes' },
};

/** Events that hold several sealed secrets, in `secrets[].sealedSecret`. */
const RESEALED = 'WebhookSecretsResealed';

const isResealedList = (value: unknown): value is { sealedSecret: unknown }[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null && 'sealedSecret' in item);

/** The event with its key hash or sealed secret, if it has one, replaced by the withheld marker. */
export function withSecretsWithheld(event: HistoricalEvent): HistoricalEvent {
  const listed = event.data.secrets;
  if (event.type === RESEALED && isResealedList(listed))
    return {
      ...event,
      data: {
        ...event.data,
        secrets: listed.map((item, index) => ({ ...item, sealedSecret: withheldSecret(`${event.eventId}:${index}`) })),
      },
    };
  const secret = SECRET_FIELDS[event.type];
  if (!secret || !(secret.field in event.data)) return event;
  return { ...event, data: { ...event.data, [secret.field]: withheldSecret(event.eventId) } };
}

export const noneWithheld = (): WithheldCounts => ({ apiKeyHashes: 0, operatorTokenHashes: 0, webhookSecrets: 0 });

/** Counts the event in `counts` if its secret was withheld by the export it comes from. */
export function countWithheld(event: HistoricalEvent, counts: WithheldCounts): void {
  const listed = event.data.secrets;
  if (event.type === RESEALED && isResealedList(listed))
    counts.webhookSecrets += listed.filter((item) => isWithheld(item.sealedSecret)).length;
  const secret = SECRET_FIELDS[event.type];
  if (secret && isWithheld(event.data[secret.field])) counts[secret.counted] += 1;
}
