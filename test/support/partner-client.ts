import { createPartnerClient, PartnerClient } from '../../clients/typescript/src';

/** The generated TypeScript client (clients/typescript) against a test service, with a partner's key. */
export function partnerClient(url: string, apiKey: string): PartnerClient {
  return createPartnerClient({ baseUrl: url, apiKey });
}

/**
 * The data of a 2xx answer of the generated client; anything else fails the test with the status and Error body.
 * The body was parsed by fetch, outside Jest's realm: check arrays with Array.isArray, not expect.any(Array).
 */
export async function dataOf<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined)
    throw new Error(`expected a 2xx answer, got ${response.status} ${JSON.stringify(error ?? null)}`);
  return data;
}
