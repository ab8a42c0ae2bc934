import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
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
    const messages = Object.values(error.constraints);
    return `${path}: ${messages[messages.length - 1]}`;
  }
  if (error.children?.length) return firstProblem(error.children, path);
  return `${path}: is invalid`;
}

/** C0 controls, DEL and C1 controls (Unicode category Cc). Printable Unicode, format marks included, is accepted. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
/** A surrogate half without its partner: not text, and PostgreSQL's jsonb refuses it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function textProblem(text: string): string | null {
  if (CONTROL_CHARACTER.test(text)) return 'must not contain control characters';
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode text';
  return null;
}

/** The first string (value or key) that is not safe text, as "<field>: <problem>". */
function findUnsafeText(value: unknown, path: string, root: string): string | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? `${path || root}: ${problem}` : null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const keyProblem = textProblem(key);
      if (keyProblem) return `${path || root}: field names ${keyProblem}`;
      const found = findUnsafeText(child, path ? `${path}.${key}` : key, root);
      if (found) return found;
    }
  }
  return null;
}
