import { createPartnerClient, isDryRun, PartnerClient } from '../../clients/typescript/src';

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

/** The order a placing call answered (POST /topup, POST /pay-bill): a dry run's answer fails the test. */
export async function placedOrderOf<T extends object>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<Exclude<T, { validate_only: true }>> {
  const data = await dataOf(call);
  if (isDryRun(data)) throw new Error(`expected an order, got a dry run's answer ${JSON.stringify(data)}`);
  return data as Exclude<T, { validate_only: true }>;
}
