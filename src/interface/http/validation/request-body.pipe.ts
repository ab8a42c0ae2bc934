import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { findUnsafeText } from '../../shared/safe-text';
import { ServiceError } from '../../../application/shared/service-error';
import { RequestSubject, validatedRequest } from '../../shared/requests/validated-request';

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
    return validatedRequest(metadata.metatype, value, BODY);
  }
}

const BODY: RequestSubject = { root: 'body', noun: 'request' };
