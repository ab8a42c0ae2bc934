import { IncomingMessage } from 'node:http';
import { Answer, error, parse } from './sim-http';
import { SimApi, SimState } from './sim-state';

/** OAuth2 client credentials with an audience per API, and bearer tokens that expire. */
export interface SimCredentials {
  clientId?: string;
  clientSecret?: string;
  tokenTtlMs: number;
  /** A token older than this is refused TOKEN_EXPIRED, whatever lifetime it was given (null: no limit). */
  tokenMaxAgeMs: number | null;
}

export function issueToken(raw: string, state: SimState, options: SimCredentials): Answer {
  const body = parse(raw);
  if (
    !body ||
    body.grant_type !== 'client_credentials' ||
    typeof body.client_id !== 'string' ||
    typeof body.client_secret !== 'string'
  ) {
    return {
      status: 400,
      body: {
        error: 'invalid_request',
        error_description: 'client_id, client_secret and grant_type client_credentials are required',
      },
    };
  }
  if (
    options.clientId &&
    options.clientSecret &&
    (body.client_id !== options.clientId || body.client_secret !== options.clientSecret)
  ) {
    return { status: 401, body: { error: 'access_denied', error_description: 'Unauthorized' } };
  }
  const api = audienceApi(body.audience);
  if (!api)
    return {
      status: 403,
      body: { error: 'access_denied', error_description: `unknown audience ${String(body.audience)}` },
    };
  const scope = api === 'airtime' ? 'send-topups read-operators read-topups-history read-prepaid-balance' : 'utilities';
  return {
    status: 200,
    body: {
      access_token: state.issueToken(api, options.tokenTtlMs, state.now()),
      scope,
      expires_in: Math.floor(options.tokenTtlMs / 1000),
      token_type: 'Bearer',
    },
  };
}

export function authorize(
  request: IncomingMessage,
  api: SimApi,
  path: string,
  state: SimState,
  tokenMaxAgeMs: number | null,
): Answer | null {
  const header = request.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? state.tokens.get(header.slice(7)) : undefined;
  const now = state.now();
  const errorCode =
    !token || token.api !== api
      ? 'INVALID_TOKEN'
      : token.expiresAt <= now || (tokenMaxAgeMs !== null && now - token.issuedAt >= tokenMaxAgeMs)
        ? 'TOKEN_EXPIRED'
        : null;
  if (errorCode === null) return null;
  state.unauthorized.push({ path: `${request.method ?? 'GET'} ${path}`, errorCode });
  return errorCode === 'INVALID_TOKEN'
    ? error(401, errorCode, 'Full authentication is required to access this resource', path)
    : error(401, errorCode, 'The access token has expired', path);
}

function audienceApi(audience: unknown): SimApi | null {
  if (typeof audience !== 'string') return null;
  try {
    const url = new URL(audience);
    if (url.pathname.replace(/\/+$/, '').endsWith('/airtime') || url.hostname.startsWith('topups')) return 'airtime';
    if (url.pathname.replace(/\/+$/, '').endsWith('/utilities') || url.hostname.startsWith('utilities'))
      return 'utilities';
  } catch {
    return null;
  }
  return null;
}
