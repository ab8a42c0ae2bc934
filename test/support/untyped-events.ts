import { EventDecoder } from '../../src/application/ports/event-decoder.port';
import { UntypedEvent } from '../../src/application/ports/event-store.port';

/**
 * For the stores' contract and adapter tests, whose events are of any type: every event read is taken as it was
 * stored (the service's stores decode with LOG_EVENT_DECODER).
 */
export const UNTYPED_EVENTS: EventDecoder<UntypedEvent> = { decode: (event) => event };
