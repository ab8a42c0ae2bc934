import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { ServiceError } from '../../../application/shared/service-error';

/**
 * Validates a JSON body against its DTO class: it must be an object, carry no unknown
 * field, no control characters in any text, and every field must have its declared type
 * (no coercion: "100" is not a number). The first problem is reported, naming its field.
 */
@Injectable()
export class RequestBodyPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body' || !metadata.metatype || metadata.metatype === Object) return value;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ServiceError('validation_failed', 'body: must be a JSON object');
    }
    const control = findControlCharacter(value, '');
    if (control) throw new ServiceError('validation_failed', `${control}: must not contain control characters`);
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
    const messages = Object.values(error.constraints);
    return `${path}: ${messages[messages.length - 1]}`;
  }
  if (error.children?.length) return firstProblem(error.children, path);
  return `${path}: is invalid`;
}

function findControlCharacter(value: unknown, path: string): string | null {
  if (typeof value === 'string') return /[\u0000-\u001f\u007f]/.test(value) ? path || 'body' : null;
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const found = findControlCharacter(child, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return null;
}
