import { LOG_EVENT_DECODER } from '../../../../src/application/ports/event-decoder.port';
import { RecordedEvent } from '../../../../src/application/ports/event-store.port';
import {
  KeyBindingsFromLog,
  REQUEST_HASH_NOT_IN_LOG,
} from '../../../../src/application/data-move/key-bindings-from-log';
import { UnfinishedWork } from '../../../../src/application/data-move/unfinished-work';

let sequence = 0;
const recorded = (
  streamId: string,
  type: string,
  data: Record<string, unknown>,
  at = '2026-11-25T08:00:00.000Z',
): RecordedEvent =>
  LOG_EVENT_DECODER.decode({
    eventId: `00000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`,
    streamId,
    revision: 0,
    type,
    schemaVersion: 1,
    data,
    metadata: {
      partnerId: 'ptr_1',
      environment: 'sandbox',
      correlationId: String(data.orderId ?? data.partnerId),
      causationId: null,
      actor: { type: 'system', id: 'test' },
      occurredAt: at,
    },
    position: { commit: BigInt(sequence), prepare: BigInt(sequence) },
    recordedAt: at,
  });

const wallet = 'wallet-ptr_1-sandbox';
const debit = (orderId: string, placedAt = '2026-11-25T08:00:00.000Z') =>
  recorded(wallet, 'WalletDebited', {
    orderId,
    amount: '10.00',
    currency: 'INR',
    balanceAfter: '990.00',
    reference: null,
    idempotencyKey: `key-${orderId}`,
    product: { kind: 'topup', phone: '+919876540001', operatorId: 101 },
    placedAt,
  });
const initiated = (orderId: string) =>
  recorded(`order-${orderId}`, 'TransactionInitiated', {
    orderId,
    partnerId: 'ptr_1',
    environment: 'sandbox',
    placedAt: '2026-11-25T08:00:00.000Z',
  });

describe('the work a moved history leaves undone', () => {
  const now = new Date('2026-11-25T09:00:00.000Z');

  it('is nothing once every order has its outcome and every failure its refund, a sandbox order held included', () => {
    const work = new UnfinishedWork();
    for (const event of [
      recorded('partner-ptr_1', 'PartnerOnboarded', {
        partnerId: 'ptr_1',
        corridor: 'IN',
        onboardedAt: '2026-11-25T08:00:00.000Z',
      }),
      recorded(wallet, 'WalletCredited', { kind: 'sandbox_grant', creditId: 'grant-ptr_1' }),
      debit('ord_a'),
      initiated('ord_a'),
      recorded('order-ord_a', 'TransactionFailed', {
        orderId: 'ord_a',
        reason: 'x',
        failedAt: '2026-11-25T08:00:01.000Z',
      }),
      recorded(wallet, 'WalletRefunded', { orderId: 'ord_a' }),
      debit('ord_b'),
      initiated('ord_b'),
      recorded('order-ord_b', 'TransactionDisputed', {
        orderId: 'ord_b',
        reason: 'stuck',
        disputedAt: '2026-11-25T08:15:00.000Z',
      }),
    ]) {
      work.observe(event);
    }
    expect(work.jobs(now, 900_000)).toEqual([]);
  });

  it('looks a held live order up now: it is followed at its provider until its horizon (decision 0117)', () => {
    const work = new UnfinishedWork();
    const liveWallet = 'wallet-ptr_1-live';
    for (const event of [
      { ...debit('ord_held'), streamId: liveWallet },
      recorded('order-ord_held', 'TransactionInitiated', {
        orderId: 'ord_held',
        partnerId: 'ptr_1',
        environment: 'live',
        placedAt: '2026-11-25T08:00:00.000Z',
      }),
      recorded('order-ord_held', 'TransactionSubmitted', { orderId: 'ord_held', providerReference: 'p-1' }),
      recorded('order-ord_held', 'TransactionDisputed', {
        orderId: 'ord_held',
        reason: 'stuck',
        disputedAt: '2026-11-25T08:15:00.000Z',
      }),
    ])
      work.observe(event);
    expect(work.jobs(now, 900_000)).toEqual([
      {
        id: `poll-order:ord_held:${now.getTime()}`,
        kind: 'poll-order',
        dueAt: now,
        payload: { orderId: 'ord_held', environment: 'live' },
      },
    ]);
  });

  it('submits an order never submitted, refunds a failure, grants a credit, and polls an order without an answer now and holds it a stuck-order period later', () => {
    const work = new UnfinishedWork();
    for (const event of [
      recorded('partner-ptr_2', 'PartnerOnboarded', {
        partnerId: 'ptr_2',
        corridor: 'IN',
        onboardedAt: '2026-11-25T08:00:00.000Z',
      }),
      debit('ord_unsubmitted'),
      debit('ord_failed'),
      initiated('ord_failed'),
      recorded('order-ord_failed', 'TransactionFailed', {
        orderId: 'ord_failed',
        reason: 'x',
        failedAt: '2026-11-25T08:00:01.000Z',
      }),
      debit('ord_pending'),
      initiated('ord_pending'),
      recorded('order-ord_pending', 'TransactionSubmitted', {
        orderId: 'ord_pending',
        providerReference: null,
        submittedAt: '2026-11-25T08:00:00.000Z',
      }),
    ]) {
      work.observe(event);
    }
    expect(work.jobs(now, 900_000).map((job) => [job.id, job.dueAt.toISOString()])).toEqual([
      ['submit-order:ord_unsubmitted', '2026-11-25T08:00:00.000Z'],
      ['refund-order:ord_failed', '2026-11-25T08:00:01.000Z'],
      ['grant-sandbox-credit:ptr_2', '2026-11-25T08:00:00.000Z'],
      [`poll-order:ord_pending:${now.getTime()}`, now.toISOString()],
      ['hold-stuck-order:ord_pending', '2026-11-25T09:15:00.000Z'],
    ]);
  });

  it('puts a live order with no provider answer in doubt before anything else: its submission may have been under way at the export', () => {
    const work = new UnfinishedWork();
    const liveWallet = 'wallet-ptr_1-live';
    const liveDebit = (orderId: string) => ({ ...debit(orderId), streamId: liveWallet });
    const liveInitiated = (orderId: string) =>
      recorded(`order-${orderId}`, 'TransactionInitiated', {
        orderId,
        partnerId: 'ptr_1',
        environment: 'live',
        placedAt: '2026-11-25T08:00:00.000Z',
      });
    for (const event of [
      liveDebit('ord_live_unsubmitted'),
      liveDebit('ord_live_not_sent'),
      liveInitiated('ord_live_not_sent'),
      recorded('order-ord_live_not_sent', 'TransactionAttemptNotSent', {
        orderId: 'ord_live_not_sent',
        attempt: 1,
        reason: 'connection refused',
        at: '2026-11-25T08:00:01.000Z',
      }),
      liveDebit('ord_live_acknowledged'),
      liveInitiated('ord_live_acknowledged'),
      recorded('order-ord_live_acknowledged', 'TransactionSubmitted', {
        orderId: 'ord_live_acknowledged',
        providerReference: 'rl-1',
        submittedAt: '2026-11-25T08:00:00.000Z',
      }),
      debit('ord_sandbox_unsubmitted'),
    ]) {
      work.observe(event);
    }
    const reasons = Object.fromEntries(
      work
        .jobs(now, 900_000)
        .filter((job) => job.kind === 'submit-order' || job.kind === 'poll-order')
        .map((job) => [job.id.replace(`:${now.getTime()}`, ''), job.payload.inDoubtReason ?? null]),
    );
    expect(reasons).toEqual({
      'submit-order:ord_live_unsubmitted': expect.stringContaining('data import'),
      'poll-order:ord_live_not_sent': expect.stringContaining('data import'),
      'poll-order:ord_live_acknowledged': null,
      'submit-order:ord_sandbox_unsubmitted': null,
    });
  });
});

describe('the Idempotency-Keys a moved history still binds', () => {
  it('are those of the debits of the last 24 hours, bound to their orders, matching no request body', () => {
    const keys = new KeyBindingsFromLog();
    keys.observe(debit('ord_old', '2026-11-24T08:59:59.999Z'));
    keys.observe(debit('ord_recent', '2026-11-25T08:00:00.000Z'));
    const [binding, ...others] = keys.bindings(new Date('2026-11-25T09:00:00.000Z'));
    expect(others).toEqual([]);
    expect(binding).toEqual({
      partnerId: 'ptr_1',
      environment: 'sandbox',
      key: 'key-ord_recent',
      requestHash: REQUEST_HASH_NOT_IN_LOG,
      orderId: 'ord_recent',
      createdAt: '2026-11-25T08:00:00.000Z',
      expiresAt: '2026-11-26T08:00:00.000Z',
    });
  });
});
