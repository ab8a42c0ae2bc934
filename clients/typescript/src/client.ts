import createClient, { Client } from 'openapi-fetch';
import type { components, paths } from './schema';

export type PartnerClient = Client<paths>;
export type Schemas = components['schemas'];
export type ErrorBody = Schemas['Error'];
export type ErrorCode = ErrorBody['error'];

export interface PartnerClientOptions {
  /** The service's address without the path, e.g. `https://api.example.com` (paths start with /v1/partner/). */
  baseUrl: string;
  /** `svc_test_…` (sandbox) or `svc_live_…` (live): the key decides the environment. */
  apiKey: string;
  /** Another fetch implementation (a proxy agent, a test double); default: the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request besides Authorization. */
  headers?: Record<string, string>;
}

/**
 * A typed client of the partner API: `client.GET('/v1/partner/balance')`,
 * `client.POST('/v1/partner/topup', { params: { header: { 'Idempotency-Key': key } }, body })`.
 * Each call resolves to `{ data }` on a 2xx answer or `{ error }` (the Error body) otherwise,
 * with `response` for the status and headers; it rejects only when no answer came (then retry
 * with the same Idempotency-Key).
 */
export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  if (!/^svc_(live|test)_/.test(options.apiKey))
    throw new Error('createPartnerClient: apiKey must start with svc_live_ or svc_test_');
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
