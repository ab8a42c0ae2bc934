/**
 * The union of events a stream (or the whole log) may hold, as a table of their types. Typed as a
 * record over the union's `type`, so the compiler refuses a table that leaves one out.
 */
export type EventTypeTable<Event extends { type: string }> = Readonly<Record<Event['type'], true>>;

/** A stream and the union of events it holds: a read of it checks each event against `holds`. */
export interface EventStream<Event extends { type: string }> {
  readonly id: string;
  readonly holds: EventTypeTable<Event>;
}

/** True when `type` is one of the table's (its own keys only, never a prototype's). */
export const tableHolds = (table: Readonly<Record<string, true>>, type: string): boolean => Object.hasOwn(table, type);

/** The table's types as a set, for filters that take one. */
export const typesOf = <Type extends string>(table: Readonly<Record<Type, true>>): ReadonlySet<Type> =>
  new Set(Object.keys(table).filter((key): key is Type => tableHolds(table, key)));

/** The event as the member of its union named `type`; an Error if it is another (a decision other than the one expected). */
export function eventOfType<Event extends { type: string }, Type extends Event['type']>(
  event: Event,
  type: Type,
): Extract<Event, { type: Type }> {
  const isOfType = (candidate: Event): candidate is Extract<Event, { type: Type }> => candidate.type === type;
  if (!isOfType(event)) throw new Error(`expected a ${type} event, got ${event.type}`);
  return event;
}
