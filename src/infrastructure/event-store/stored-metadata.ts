import { EventMetadata } from '../../application/ports/event-store.port';

/** Stored metadata (parsed JSON) that has the fields every event's metadata carries; other keys are kept as stored. */
export function hasEventMetadataFields(
  stored: Record<string, unknown>,
): stored is Record<string, unknown> & EventMetadata {
  const { correlationId, occurredAt, actor } = stored;
  return (
    typeof correlationId === 'string' &&
    typeof occurredAt === 'string' &&
    typeof actor === 'object' &&
    actor !== null &&
    !Array.isArray(actor) &&
    !(actor instanceof Uint8Array)
  );
}
