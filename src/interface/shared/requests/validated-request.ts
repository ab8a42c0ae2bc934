import { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { ServiceError } from '../../../application/shared/service-error';
import { findUnsafeText } from '../safe-text';
import { compiledValidatorOf } from './compiled-validator';

/** How refusals name what was sent: the REST body, or an agent tool's arguments. */
export interface RequestSubject {
  root: string;
  noun: string;
}

// The request checks for REST bodies and tool arguments alike: a JSON object, safe text, no unknown field, each
// field as declared. Answers the DTO instance or throws validation_failed naming the first problem.
export function validatedRequest<T extends object>(dto: new () => T, value: unknown, subject: RequestSubject): T;
export function validatedRequest(dto: Type, value: unknown, subject: RequestSubject): object;
export function validatedRequest(dto: Type, value: unknown, subject: RequestSubject): object {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ServiceError('validation_failed', `${subject.root}: must be a JSON object`);
  }
  const problem = findUnsafeText(value, '', subject.root);
  if (problem) throw new ServiceError('validation_failed', problem);
  // Good input takes the compiled checks; anything they refuse goes to class-validator, which
  // decides alike and names the problem.
  const valid: object | null | undefined = compiledValidatorOf<object>(dto)?.(value);
  if (valid) return valid;
  return classValidated(dto, value, subject);
}

// class-validator's judgement of a JSON object of safe text: the instance or validation_failed naming the first
// problem. Every refusal's path, and what the compiled checks are held to by the differential test.
export function classValidated(dto: Type, value: object, subject: RequestSubject): object {
  const instance = plainToInstance(dto, value, { enableImplicitConversion: false }) as object;
  // An empty object is the whole of an input without fields (a tool that takes no arguments),
  // which class-validator would otherwise refuse as a class it knows nothing about.
  const empty = Object.keys(value).length === 0;
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: !empty });
  if (errors.length) throw new ServiceError('validation_failed', firstProblem(errors, subject.noun));
  return instance;
}

function firstProblem(errors: ValidationError[], noun: string, prefix = ''): string {
  const error = errors[0];
  const path = prefix ? `${prefix}.${error.property}` : error.property;
  if (error.constraints) {
    if (error.constraints.whitelistValidation) return `${path}: is not a field of this ${noun}`;
    // Only a required field reaches here without a value (optional ones are skipped when absent).
    if (error.value === undefined) return `${path}: is required`;
    const messages = Object.values(error.constraints);
    return `${path}: ${messages[messages.length - 1]}`;
  }
  if (error.children?.length) return firstProblem(error.children, noun, path);
  return `${path}: is invalid`;
}
