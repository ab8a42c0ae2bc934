import { AdminRequest } from './command-spec';
import { errorCause, errorCode, errorMessage } from './error-fields';

export type HttpResult = { kind: 'response'; status: number; text: string } | { kind: 'unreachable'; cause: string };

// undici reports "fetch failed" and keeps the useful part (ECONNREFUSED, ENOTFOUND...) in cause.
const describe = (error: unknown): string => {
  const cause = errorCause(error);
  if (cause === undefined) return errorMessage(error);
  return errorCode(cause) ?? errorMessage(cause);
};

export const sendAdminRequest = async (
  serviceUrl: string,
  token: string,
  request: AdminRequest,
): Promise<HttpResult> => {
  try {
    const response = await fetchAdmin(serviceUrl, token, request);
    return { kind: 'response', status: response.status, text: await response.text() };
  } catch (error) {
    return { kind: 'unreachable', cause: describe(error) };
  }
};

export type OpenedResponse = { kind: 'response'; response: Response } | { kind: 'unreachable'; cause: string };

export const openAdminRequest = async (
  serviceUrl: string,
  token: string,
  request: AdminRequest,
): Promise<OpenedResponse> => {
  try {
    return { kind: 'response', response: await fetchAdmin(serviceUrl, token, request) };
  } catch (error) {
    return { kind: 'unreachable', cause: describe(error) };
  }
};

export const describeFailure = describe;

const fetchAdmin = (serviceUrl: string, token: string, request: AdminRequest): Promise<Response> => {
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...request.headers,
    authorization: `Bearer ${token}`,
  };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${serviceUrl}/v1/admin${request.path}`, {
    method: request.method,
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
};
