import { LOG_EVENTS, LogEvent } from '../../domain/log-events';
import { EventTypeTable, tableHolds } from '../../domain/shared/event-types';
import { DomainEvent, RecordedEvent, UntypedEvent } from './event-store.port';

/**
 * Where a store's reads become events of its log. Each store adapter calls it at one point, for every
 * event it reads, so that no reader casts: a reader switches on `type` and gets the data of that type.
 */
export interface EventDecoder<Event extends DomainEvent> {
  /** The event as a member of the union, its data brought up to the current schema version; UnreadableEventError otherwise. */
  decode(recorded: RecordedEvent<UntypedEvent>): RecordedEvent<Event>;
}

/**
 * An event this release cannot read: a type it does not know, or a schema version it has no way to: written by
 * a later release, or not by this service. Refused rather than skipped or read as something else, which
 * would fold a wrong state.
 */
export class UnreadableEventError extends Error {
  constructor(
    readonly event: Pick<RecordedEvent<UntypedEvent>, 'eventId' | 'streamId' | 'revision' | 'type' | 'schemaVersion'>,
    reason: string,
  ) {
    super(
      `event ${event.eventId} (${event.type}, schema version ${event.schemaVersion}) at ${event.streamId}@${event.revision}: ${reason}`,
    );
    this.name = 'UnreadableEventError';
  }
}

/** Takes one type's data from a schema version to the next. */
export type Upcast = (data: Record<string, unknown>) => Record<string, unknown>;

/** The events of a union as they are stored: their types, and how each type's older data reads as its current shape. */
export interface EventSchema<Event extends DomainEvent> {
  types: EventTypeTable<Event>;
  /**
   * Per type that changed shape, its upcasts in order: the one at index i takes version i + 1 to i + 2. A type's
   * current version (the one appended) is one more than the number of its upcasts.
   */
  upcasts: Readonly<Partial<Record<Event['type'], readonly Upcast[]>>>;
}

/** The schema version a type is appended with. */
export function schemaVersionIn<Event extends DomainEvent>(schema: EventSchema<Event>, type: Event['type']): number {
  return 1 + upcastsOf(schema, type).length;
}

function upcastsOf<Event extends DomainEvent>(schema: EventSchema<Event>, type: string): readonly Upcast[] {
  const byType: Readonly<Partial<Record<string, readonly Upcast[]>>> = schema.upcasts;
  return Object.hasOwn(byType, type) ? (byType[type] ?? []) : [];
}

/** Checks the type against the union's table and applies the upcasts an older version needs. */
export function eventDecoder<Event extends DomainEvent>(schema: EventSchema<Event>): EventDecoder<Event> {
  // The one place where stored JSON is taken for the union member its type names.
  const isMember = (event: RecordedEvent<DomainEvent>): event is RecordedEvent<Event> =>
    tableHolds(schema.types, event.type);
  return {
    decode(recorded) {
      if (!tableHolds(schema.types, recorded.type))
        throw new UnreadableEventError(recorded, 'this release knows no event of that type');
      const upcasts = upcastsOf(schema, recorded.type);
      const current = 1 + upcasts.length;
      let event = recorded;
      if (recorded.schemaVersion !== current) {
        if (
          !Number.isSafeInteger(recorded.schemaVersion) ||
          recorded.schemaVersion < 1 ||
          recorded.schemaVersion > current
        )
          throw new UnreadableEventError(recorded, `this release reads versions 1 to ${current} of that type`);
        let data = recorded.data;
        for (let version = recorded.schemaVersion; version < current; version++) data = upcasts[version - 1](data);
        event = { ...recorded, schemaVersion: current, data };
      }
      if (!isMember(event)) throw new UnreadableEventError(recorded, 'this release knows no event of that type');
      return event;
    },
  };
}

/**
 * The service's log. No type has changed shape yet, so every type is at version 1; to change one, add the upcast
 * from its current shape here (the version appended moves on with it) rather than editing events already stored.
 */
export const LOG_EVENT_SCHEMA: EventSchema<LogEvent> = { types: LOG_EVENTS, upcasts: {} };

export const LOG_EVENT_DECODER: EventDecoder<LogEvent> = eventDecoder(LOG_EVENT_SCHEMA);
