import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { findUnsafeText } from '../../shared/safe-text';
import { ServiceError } from '../../../application/shared/service-error';

/**
 * Validates a JSON body against its DTO class: it must be an object, carry no unknown
 * field, no control characters or broken Unicode in any text, and every field must have
 * its declared type (no coercion: "100" is not a number). The first problem is reported,
 * naming its field. Path parameters and query strings get the same text check, so no
 * control character (PostgreSQL refuses NUL) or lone surrogate reaches a use case.
 */
@Injectable()
export class RequestBodyPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'param' || metadata.type === 'query') {
      const problem = findUnsafeText(value, metadata.data ?? '', metadata.type);
      if (problem) throw new ServiceError('validation_failed', problem);
      return value;
    }
    if (metadata.type !== 'body' || !metadata.metatype || metadata.metatype === Object) return value;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ServiceError('validation_failed', 'body: must be a JSON object');
    }
    const problem = findUnsafeText(value, '', 'body');
    if (problem) throw new ServiceError('validation_failed', problem);
    const instance = plainToInstance(metadata.metatype, value, { enableImplicitConversion: false }) as object;
    const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
    if (errors.length) throw new ServiceError('validation_failed', firstProblem(errors));
    return instance;
  }
}

function firstProblem(errors: ValidationError[], prefix = ''): string {
  const error = errors[0];
  const path = prefix ? `${prefix}.${error.property}` : error.property;
  if (error.constraints) {
    if (error.constraints.whitelistValidation) return `${path}: is not a field of this request`;
    // Only a required field reaches here without a value (optional ones are skipped when absent).
    if (error.value === undefined) return `${path}: is required`;
    const messages = Object.values(error.constraints);
    return `${path}: ${messages[messages.length - 1]}`;
  }
  if (error.children?.length) return firstProblem(error.children, path);
  return `${path}: is invalid`;
}

