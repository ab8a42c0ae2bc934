import { DemoClient } from './admin-client';

/**
 * Waits until `ready` holds. Against a running service it polls (its background work and its
 * clock move by themselves); the tests drive a manual clock instead.
 */
export type WaitUntil = (what: string, ready: () => Promise<boolean>) => Promise<void>;

export interface DemoData {
  /** The token of the owner the console is photographed as (`ops.demo`, for one day). */
  operatorToken: string;
  partnerId: string;
  partnerName: string;
  heldOrderId: string;
  day: string;
}

/**
 * A small, realistic back office to photograph: an approved partner with a live credit, a second
 * partner awaiting KYC, sandbox orders that succeed, fail and get held, and a webhook receiver
 * that refuses connections (deliveries being retried).
 */
export async function seedDemoData(ownerClient: DemoClient, waitUntil: WaitUntil): Promise<DemoData> {
  const run = Date.now().toString(36).slice(-5);
  // Needs an owner's token (the break-glass ADMIN_TOKEN will do): the console is shown as an owner, every action offered.
  const operator = await ownerClient.admin('POST', '/operators', {
    name: 'ops.demo',
    role: 'owner',
    expires_in_days: 1,
  });
  const operatorToken: string = operator.token;
  // Seeded as ops.demo too, so the timelines and exports in the pictures name a person.
  const client = new DemoClient(ownerClient.url, operatorToken);
  const partnerName = `Asha Mobile Pvt Ltd ${run}`;
  const created = await client.admin('POST', '/partners', { name: partnerName, corridor: 'IN' });
  const partnerId: string = created.partner_id;
  const key: string = created.sandbox_api_key;
  await client.admin('POST', '/partners', { name: `Dhaka Pay ${run}`, corridor: 'BD' });
  await client.admin('POST', `/partners/${partnerId}/kyc`, { status: 'approved' });
  await client.admin(
    'POST',
    `/partners/${partnerId}/wallet-credits`,
    { environment: 'live', amount: '25000.00', reference: 'NEFT UTIB0000123' },
    { 'idempotency-key': `demo-${run}` },
  );
  await client.admin('PATCH', `/partners/${partnerId}/settings`, {
    environment: 'sandbox',
    webhook_url: 'https://hooks.example.com/recharge',
    rate_limit: 600,
  });
  await waitUntil(
    'the sandbox starting credit',
    async () => (await client.admin('GET', `/partners/${partnerId}`)).balances.sandbox?.available === '1000.00',
  );

  const topup = (suffix: string, amount: number, reference: string) =>
    client.partner(
      'POST',
      '/topup',
      key,
      { operator_id: 101, phone: `+91987654${suffix}`, amount, reference },
      { 'idempotency-key': `demo-${run}-${reference}` },
    );
  await topup('0001', 199, 'INV-1001');
  await topup('0002', 49, 'INV-1002');
  await topup('0001', 299, 'INV-1003');
  const held = await topup('0005', 149, 'INV-1004');
  const heldOrderId: string = held.order_id;
  await waitUntil('the order to be held for an operator', async () =>
    (await client.admin('GET', '/orders?held=true&limit=1000')).orders.some(
      (order: { order_id: string }) => order.order_id === heldOrderId,
    ),
  );
  await waitUntil(
    'the other orders to settle',
    async () => (await client.admin('GET', `/orders?partner_id=${partnerId}&status=PENDING`)).count === 0,
  );
  // One re-send, so that the operator's audit shows an action outside the log beside the events.
  let deliveryId = '';
  await waitUntil('a webhook delivery to re-send', async () => {
    const listed = await client.admin('GET', `/webhook-deliveries?partner_id=${partnerId}&limit=1`);
    deliveryId = listed.deliveries[0]?.delivery_id ?? '';
    return deliveryId !== '';
  });
  await client.admin('POST', `/webhook-deliveries/${deliveryId}/resend`);
  const day = new Date((await client.admin('GET', `/orders/${heldOrderId}`)).created_at).toISOString().slice(0, 10);
  return { operatorToken, partnerId, partnerName, heldOrderId, day };
}
