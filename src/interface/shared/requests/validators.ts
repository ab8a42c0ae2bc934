import { ValidateBy, ValidationOptions } from 'class-validator';

/** An object whose values are all strings of bounded length (the `params` of bill requests). */
export const isStringRecord = (value: unknown, maxEntries: number, maxLength: number): boolean =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.keys(value).length <= maxEntries &&
  Object.values(value).every((entry) => typeof entry === 'string' && entry.length <= maxLength);

export function IsStringRecord(maxEntries: number, maxLength: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStringRecord',
      validator: {
        validate: (value: unknown) => isStringRecord(value, maxEntries, maxLength),
        defaultMessage: () =>
          `must be an object of at most ${maxEntries} string values of at most ${maxLength} characters`,
      },
    },
    options,
  );
}
