import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';
import { PeerServer, seedPeerPartners } from '../../../bench/lib/peer';
import { waitForAsync } from '../../support/wait-for';

/**
 * The bench's CRUD peer (bench/peer/) is only a fair baseline if it keeps the service's rules:
 * the same requests get the same status codes and the same Error bodies from both, and the same
 * order fields when they succeed.
 */
interface Answer {
  status: number;
  replay: string | null;
  text: string;
  body: Record<string, unknown> | undefined;
}

type Call = (
  method: string,
  path: string,
  options?: { key?: string | null; body?: unknown; idempotencyKey?: string },
) => Promise<Answer>;

const caller =
  (url: string, key: string): Call =>
  async (method, path, options = {}) => {
    const headers: Record<string, string> = {};
    const token = options.key === undefined ? key : options.key;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${url}/v1/partner${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    let body: Record<string, unknown> | undefined;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = undefined;
    }
    return { status: response.status, replay: response.headers.get('idempotent-replay'), text, body };
  };

/** The fields of an Order that do not depend on which server placed it. */
const orderFields = ({ order_id: _id, created_at: _at, ...rest }: Record<string, unknown>) => rest;

describe('the CRUD peer of the bench answers as the service does', () => {
  let service: TestService;
  let peer: PeerServer;
  let peerDatabase: TestDatabase;
  let sides: { name: string; call: Call }[];

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
    const partner = await service.createPartner('IN', 'Answers');
    // The sandbox starting credit of 1,000.00 is granted in the background.
    await service.settle();
    peerDatabase = await createTestDatabase('crud_peer');
    peer = await PeerServer.start(process.cwd(), peerDatabase.connectionString);
    const [peerPartner] = await seedPeerPartners(peerDatabase.connectionString, 'Answers', 1, {
      fund: '1000.00',
      rateLimit: 60,
    });
    sides = [
      { name: 'service', call: caller(service.url, partner.sandboxKey) },
      { name: 'peer', call: caller(peer.url, peerPartner.key) },
    ];
  }, 120_000);

  afterAll(async () => {
    await peer?.stop();
    await peerDatabase?.drop();
    await service?.close();
  });

  const topup = { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 10, reference: 'inv-1' };

  /** Sends the same request to both and expects the same status and, unless `sameBody` is false, the same body. */
  const both = async (
    request: (call: Call) => Promise<Answer>,
    expected: { status: number; sameBody?: boolean },
  ): Promise<Answer[]> => {
    const answers: Answer[] = [];
    for (const side of sides) answers.push(await request(side.call));
    for (const [index, answer] of answers.entries())
      expect({ side: sides[index].name, status: answer.status }).toEqual({
        side: sides[index].name,
        status: expected.status,
      });
    if (expected.sameBody !== false) expect(answers[1].body).toEqual(answers[0].body);
    return answers;
  };

  it('places a good topup with the same order fields, and replays it byte for byte', async () => {
    const placed = await both((call) => call('POST', '/topup', { body: topup, idempotencyKey: 'answers-key-1' }), {
      status: 200,
      sameBody: false,
    });
    expect(orderFields(placed[1].body ?? {})).toEqual(orderFields(placed[0].body ?? {}));
    expect(placed[0].body).toEqual(expect.objectContaining({ status: 'PENDING', balance_after: '990.00' }));
    expect(placed.map((answer) => answer.replay)).toEqual([null, null]);

    const replayed = await both(
      (call) => call('POST', '/topup', { body: { ...topup }, idempotencyKey: 'answers-key-1' }),
      { status: 200, sameBody: false },
    );
    expect(replayed.map((answer) => answer.replay)).toEqual(['true', 'true']);
    expect(replayed.map((answer) => answer.text)).toEqual(placed.map((answer) => answer.text));
  });

  it('refuses the same key with another body (409), an uncovered amount (402), an amount out of range (422), an unknown operator (404)', async () => {
    await both((call) => call('POST', '/topup', { body: { ...topup, amount: 11 }, idempotencyKey: 'answers-key-1' }), {
      status: 409,
    });
    const poor = await both(
      (call) => call('POST', '/topup', { body: { ...topup, amount: 5000 }, idempotencyKey: 'answers-key-2' }),
      { status: 402 },
    );
    expect(poor[0].body).toEqual({
      error: 'insufficient_balance',
      detail: 'available 990.00 INR is below the required 5000.00',
    });
    const small = await both(
      (call) => call('POST', '/topup', { body: { ...topup, amount: 5 }, idempotencyKey: 'answers-key-3' }),
      { status: 422 },
    );
    expect(small[0].body?.error).toBe('amount_out_of_range');
    const unknown = await both(
      (call) => call('POST', '/topup', { body: { ...topup, operator_id: 999 }, idempotencyKey: 'answers-key-4' }),
      { status: 404 },
    );
    expect(unknown[0].body?.error).toBe('operator_not_found_or_wrong_corridor');
  });

  it('refuses a wrong or malformed key (401), a missing Idempotency-Key and malformed bodies (400)', async () => {
    const wrong = await both(
      (call) =>
        call('POST', '/topup', {
          key: 'svc_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
          body: topup,
          idempotencyKey: 'answers-key-5',
        }),
      { status: 401 },
    );
    expect(wrong[0].body?.error).toBe('invalid_api_key');
    await both((call) => call('GET', '/balance', { key: 'not-a-key' }), { status: 401 });
    await both((call) => call('GET', '/balance', { key: null }), { status: 401 });
    await both((call) => call('POST', '/topup', { body: topup }), { status: 400 });
    await both((call) => call('POST', '/topup', { body: topup, idempotencyKey: 'short' }), { status: 400 });
    for (const body of [
      { ...topup, extra: 1 },
      { operator_id: 101, amount: 10 },
      { ...topup, phone: 12 },
      { ...topup, amount: '10' },
      { ...topup, amount: 10.123 },
      { ...topup, phone: '+1 202 555 0101' },
      [topup],
    ])
      await both((call) => call('POST', '/topup', { body, idempotencyKey: 'answers-key-6' }), { status: 400 });
  });

  it('shows the same balance, and the order settled by the sandbox the same way', async () => {
    const balances = await both((call) => call('GET', '/balance'), { status: 200, sameBody: false });
    for (const answer of balances)
      expect(answer.body).toEqual(
        expect.objectContaining({ available: '990.00', currency: 'INR', corridor: 'IN', environment: 'sandbox' }),
      );
    await both((call) => call('GET', '/transactions/ord_unknown'), { status: 404 });

    const placed = await both(
      (call) =>
        call('POST', '/topup', {
          body: { ...topup, phone: SANDBOX_PHONES.IN('0002'), reference: null },
          idempotencyKey: 'answers-key-7',
        }),
      { status: 200, sameBody: false },
    );
    await service.settle();
    const statuses: Answer[] = [];
    for (const [index, side] of sides.entries()) {
      const orderId = String(placed[index].body?.order_id);
      let last: Answer | null = null;
      await waitForAsync(
        async () => {
          last = await side.call('GET', `/transactions/${orderId}`);
          return last.body?.status === 'FAILED';
        },
        { timeoutMs: 30_000, what: `${side.name}: order ${orderId} failed and refunded` },
      );
      if (last) statuses.push(last);
    }
    const settledFields = ({
      order_id: _o,
      created_at: _c,
      refunded_at: refunded,
      ...rest
    }: Record<string, unknown>) => ({
      ...rest,
      refunded: typeof refunded === 'string',
    });
    expect(settledFields(statuses[1].body ?? {})).toEqual(settledFields(statuses[0].body ?? {}));
    const after = await both((call) => call('GET', '/balance'), { status: 200, sameBody: false });
    expect(after.map((answer) => answer.body?.available)).toEqual(['990.00', '990.00']);
  });
});
