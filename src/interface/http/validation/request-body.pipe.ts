import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { findUnsafeText } from '../../shared/safe-text';
import { ServiceError } from '../../../application/shared/service-error';
import { RequestSubject, validatedRequest } from '../../shared/requests/validated-request';

// A JSON body must be an object with no unknown field, no control character or broken Unicode, each field of its
// declared type, uncoerced (decision 0014); the first problem is reported. Path parameters and query strings get
// the text check too, so no NUL or lone surrogate reaches a use case.
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

export const BODY: RequestSubject = { root: 'body', noun: 'request' };
