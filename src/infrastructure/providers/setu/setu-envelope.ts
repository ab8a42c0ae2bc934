import { objectOf, stringOf } from './setu-records';

/**
 * An answer's body against Setu's BillPay v2 envelope (`{data, success: true}` or `{error, success: false}`; a
 * payment's 409 is shaped as its 200). Anything else is `other` and says nothing about the request (decision 0121).
 */
export type SetuEnvelope =
  | { kind: 'data'; data: Record<string, unknown> }
  | { kind: 'error'; code: string | null; message: string | null }
  | { kind: 'other'; what: string };

export function envelopeOf(body: unknown, status: number): SetuEnvelope {
  if (body === undefined) return { kind: 'other', what: 'a body that is not JSON' };
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return { kind: 'other', what: 'a JSON that is not an object' };
  const fields = body as Record<string, unknown>;
  const data = fields.data;
  const hasData = !!data && typeof data === 'object' && !Array.isArray(data);
  if (fields.success === true && hasData) return { kind: 'data', data: data as Record<string, unknown> };
  // The 409 of a payment request carries the duplicate under `data`, whatever `success` says.
  if (status === 409 && hasData) return { kind: 'data', data: data as Record<string, unknown> };
  const error = objectOf(fields.error);
  const code = stringOf(error.code) ?? stringOf(error.Code);
  if (fields.success === false && code !== null)
    return { kind: 'error', code, message: stringOf(error.message) ?? stringOf(error.Message) };
  if (fields.success === true) return { kind: 'other', what: 'success: true without a data object' };
  if (fields.success === false) return { kind: 'other', what: 'success: false without an error code' };
  return { kind: 'other', what: 'a JSON without success' };
}
