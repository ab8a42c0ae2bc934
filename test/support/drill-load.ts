import { TEST_ADMIN_TOKEN } from './test-service';

/*
 * Load and checks shared by the failure drills (test/integration/drills/): concurrent topups over
 * real HTTP, every key sent again until it gets its 200, then the money checks.
 */

export interface DrillPartner {
  partnerId: string;
  key: string;
}

export interface DrillAttempt {
  partner: DrillPartner;
  idempotencyKey: string;
  body: Record<string, unknown>;
  status: number | null;
  orderId: string | null;
}

export interface DrillAnswer {
  status: number;
  body: any;
  text: string;
}

export async function call(
  url: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<DrillAnswer> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text };
}

/** A partner with a sandbox key whose rate limit does not get in the way of the load. */
export async function drillPartner(url: string, name: string): Promise<DrillPartner> {
  const created = await call(url, 'POST', '/v1/admin/partners', TEST_ADMIN_TOKEN, { name, corridor: 'IN' });
  if (created.status !== 201) throw new Error(`partner create failed: ${created.status} ${created.text}`);
  const limit = await call(url, 'PATCH', `/v1/admin/partners/${created.body.partner_id}/settings`, TEST_ADMIN_TOKEN, {
    environment: 'sandbox',
    rate_limit: 100_000,
  });
  if (limit.status !== 200) throw new Error(`rate limit change failed: ${limit.status} ${limit.text}`);
  return { partnerId: created.body.partner_id, key: created.body.sandbox_api_key };
}

/** Sends one attempt; a connection that dies leaves the status null (no answer). */
export async function sendTopup(url: string, attempt: DrillAttempt): Promise<void> {
  try {
    const answer = await call(url, 'POST', '/v1/partner/topup', attempt.partner.key, attempt.body, {
      'idempotency-key': attempt.idempotencyKey,
    });
    attempt.status = answer.status;
    if (answer.status === 200) {
      if (attempt.orderId && attempt.orderId !== answer.body.order_id)
        throw new Error(`key ${attempt.idempotencyKey} answered ${answer.body.order_id}, before ${attempt.orderId}`);
      attempt.orderId = answer.body.order_id;
    }
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('key ')) throw error;
    attempt.status = null;
  }
}

/** Sends every attempt, `concurrency` at a time; `afterEach` runs after each answer (a drill's trigger). */
export async function sendAll(
  url: string,
  attempts: DrillAttempt[],
  concurrency: number,
  afterEach: (answered: number) => void = () => undefined,
): Promise<void> {
  let next = 0;
  let answered = 0;
  const worker = async (): Promise<void> => {
    while (next < attempts.length) {
      await sendTopup(url, attempts[next++]);
      afterEach(++answered);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * Sends each key again until it is answered 200, as a partner retrying after a 503 would; a key
 * answered 200 before must get the same order back.
 */
export async function resendUntilAccepted(url: string, attempts: DrillAttempt[], deadlineMs = 60_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (const attempt of attempts) {
    const before = attempt.orderId;
    do {
      await sendTopup(url, attempt);
      if (attempt.status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    } while (attempt.status !== 200 && Date.now() < deadline);
    if (attempt.status !== 200)
      throw new Error(`key ${attempt.idempotencyKey} still answered ${attempt.status} at the deadline`);
    if (before && attempt.orderId !== before)
      throw new Error(`key ${attempt.idempotencyKey} answered ${attempt.orderId} after ${before}`);
  }
}

/** The wallet's debits from the audit: one per order, and exactly the orders given. */
export async function debitedOrders(url: string, partner: DrillPartner): Promise<string[]> {
  const audit = await call(
    url,
    'GET',
    `/v1/admin/audit/wallets/${partner.partnerId}/sandbox?format=jsonl`,
    TEST_ADMIN_TOKEN,
  );
  if (audit.status !== 200) throw new Error(`audit failed: ${audit.status} ${audit.text}`);
  return audit.text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { event_type: string; order_id: string | null })
    .filter((line) => line.event_type === 'WalletDebited')
    .map((line) => line.order_id!);
}

/**
 * `verify` until it passes with nothing in progress (the service's background work settles the
 * last orders meanwhile); the last report if it never does within the deadline.
 */
export async function verifyUntilClean(url: string, deadlineMs = 30_000): Promise<DrillAnswer> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const verify = await call(url, 'GET', '/v1/admin/verify', TEST_ADMIN_TOKEN);
    if ((verify.status === 200 && verify.body.in_progress.length === 0) || Date.now() > deadline) return verify;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Polls `check` until it returns a value (not undefined) or the deadline passes; for state that background work changes. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  deadlineMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
