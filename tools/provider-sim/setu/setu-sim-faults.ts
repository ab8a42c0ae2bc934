import { Answer } from '../sim-http';
import { setuError, setuOk, traceId } from './setu-sim-http';
import { SetuSimFault } from './setu-sim-state';

/** What a call that meets a fault is answered: none of these is Setu's documented answer to it. */
export function faultAnswer(fault: SetuSimFault, path: string, retryAfterSeconds: number): Answer {
  switch (fault.kind) {
    case 'html':
      return {
        status: 200,
        body: '<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>We will be back soon</h1></body></html>',
        headers: { 'content-type': 'text/html; charset=utf-8' },
      };
    case 'unsuccessful':
      return { ...setuError(200, 'internal-error', 'Something went wrong.'), status: 200 };
    case 'without_data':
      return { status: 200, body: { success: true, traceId: traceId() } };
    case 'not_a_list':
      return setuOk({ [path.endsWith('/billers') ? 'billers' : 'transactions']: {}, nextPage: null });
    case 'rate_limited':
      return {
        ...setuError(429, 'too-many-requests', 'Too many requests.'),
        headers: { 'retry-after': String(retryAfterSeconds) },
      };
  }
}
