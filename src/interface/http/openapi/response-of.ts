// What a response DTO implements to be held to its resource (the use case's type) by the compiler: exactly its
// fields, each able to hold every value of the resource's; a field may be published optional.
// When they disagree it requires a property whose name says what is wrong, so `tsc` names it.
export type ResponseOf<Resource extends object, Dto> = [MissingFields<Resource, Dto>] extends [never]
  ? [ExtraFields<Resource, Dto>] extends [never]
    ? [UnfitFields<Resource, Dto>] extends [never]
      ? [NotAlwaysSent<Resource, Dto>] extends [never]
        ? [Resource] extends [Dto]
          ? Pick<Dto, keyof Dto>
          : Refusal<'the resource does not fit the DTO'>
        : Refusal<`the DTO requires a field the resource does not always have: ${NotAlwaysSent<Resource, Dto> & string}`>
      : Refusal<`the DTO field cannot hold the resource's values: ${UnfitFields<Resource, Dto> & string}`>
    : Refusal<`the DTO field is not in the resource: ${ExtraFields<Resource, Dto> & string}`>
  : Refusal<`the resource field is not in the DTO: ${MissingFields<Resource, Dto> & string}`>;

/** Every field name of a resource, of any of its variants when it is a union. */
type FieldOf<Resource> = Resource extends unknown ? keyof Resource : never;

/** The values a field takes across the variants of a resource (a variant without the field adds none). */
type ValuesOf<Resource, Field> = Resource extends unknown
  ? Field extends keyof Resource
    ? Resource[Field]
    : never
  : never;

type MissingFields<Resource, Dto> = Exclude<FieldOf<Resource>, keyof Dto>;
type ExtraFields<Resource, Dto> = Exclude<keyof Dto, FieldOf<Resource>>;
type UnfitFields<Resource, Dto> = {
  [Field in keyof Dto & FieldOf<Resource>]-?: [ValuesOf<Resource, Field>] extends [Dto[Field]] ? never : Field;
}[keyof Dto & FieldOf<Resource>];

type RequiredFields<T> = T extends unknown
  ? { [Field in keyof T]-?: Pick<T, Field> extends Required<Pick<T, Field>> ? Field : never }[keyof T]
  : never;
/** The fields the DTO requires that some variant of the resource lacks or leaves optional. */
type NotAlwaysSent<Resource, Dto> =
  RequiredFields<Dto> extends infer Field
    ? Field extends unknown
      ? Resource extends unknown
        ? Field extends RequiredFields<Resource>
          ? never
          : Field
        : never
      : never
    : never;

type Refusal<Reason extends string> = Record<Reason, never>;
