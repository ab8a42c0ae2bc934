import { AdminRequest } from './command-spec';
import { errorCause, errorCode, errorMessage } from './error-fields';

export type HttpResult =
  | { kind: 'response'; status: number; text: string }
  | { kind: 'unreachable'; cause: string };

// undici reports "fetch failed" and keeps the useful part (ECONNREFUSED, ENOTFOUND...) in cause.
const describe = (error: unknown): string => {
  const cause = errorCause(error);
  if (cause === undefined) return errorMessage(error);
  return errorCode(cause) ?? errorMessage(cause);
};

export const sendAdminRequest = async (serviceUrl: string, token: string, request: AdminRequest): Promise<HttpResult> => {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetch(`${serviceUrl}/v1/admin${request.path}`, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    return { kind: 'response', status: response.status, text: await response.text() };
  } catch (error) {
    return { kind: 'unreachable', cause: describe(error) };
  }
};
