import { EventMetadata, RecordedEvent } from '../../src/application/ports/event-store.port';
import { transactionStreamId } from '../../src/domain/transaction/transaction.events';
import { walletStreamId } from '../../src/domain/wallet/wallet.stream';
import { OrderRowEvent } from '../../src/infrastructure/read-models/orders.projection';

/**
 * Recorded events of one sandbox partner's orders, at positions 1, 2, … in the order they are made (each factory
 * counts its own), for the read models' tests.
 */
export function orderRowEvents(partnerId: string) {
  const wallet = walletStreamId(partnerId, 'sandbox');
  let position = 0n;

  const recorded = (streamId: string, event: OrderRowEvent, at: string): RecordedEvent<OrderRowEvent> => {
    position += 1n;
    const metadata: EventMetadata = {
      partnerId,
      environment: 'sandbox',
      correlationId: 'x',
      causationId: null,
      actor: { type: 'system', id: 'test' },
      // Recorded a moment after the time its data names, as a settlement's append is.
      occurredAt: new Date(Date.parse(at) + 250).toISOString(),
    };
    return {
      ...event,
      eventId: `00000000-0000-4000-8000-${position.toString().padStart(12, '0')}`,
      schemaVersion: 1,
      metadata,
      streamId,
      revision: Number(position),
      position: { commit: position, prepare: position },
      recordedAt: at,
    };
  };

  const debit = (orderId: string, at: string, balanceAfter: string) =>
    recorded(
      wallet,
      {
        type: 'WalletDebited',
        data: {
          orderId,
          amount: '10.00',
          currency: 'INR',
          balanceAfter,
          reference: `ref-${orderId}`,
          idempotencyKey: `key-${orderId}`,
          product: { kind: 'topup', operatorId: 101, phone: '+919876540001' },
          placedAt: at,
        },
      },
      at,
    );
  const settled = (orderId: string, at: string) =>
    recorded(
      transactionStreamId(orderId),
      {
        type: 'TransactionSettled',
        data: { orderId, operatorRef: `op-${orderId}`, settledAt: at, resolvedBy: null, reason: null },
      },
      at,
    );
  const failed = (orderId: string, at: string) =>
    recorded(
      transactionStreamId(orderId),
      {
        type: 'TransactionFailed',
        data: { orderId, reason: `declined ${orderId}`, failedAt: at, resolvedBy: null, basis: 'provider_record' },
      },
      at,
    );
  const submitted = (orderId: string, at: string) =>
    recorded(
      transactionStreamId(orderId),
      { type: 'TransactionSubmitted', data: { orderId, providerReference: `p-${orderId}`, submittedAt: at } },
      at,
    );
  const disputed = (orderId: string, at: string) =>
    recorded(
      transactionStreamId(orderId),
      { type: 'TransactionDisputed', data: { orderId, reason: 'stuck', disputedAt: at } },
      at,
    );
  const refunded = (orderId: string, at: string, balanceAfter: string) =>
    recorded(
      wallet,
      {
        type: 'WalletRefunded',
        data: { orderId, amount: '10.00', currency: 'INR', balanceAfter, reason: 'failed', refundedAt: at },
      },
      at,
    );
  return { wallet, recorded, debit, settled, failed, submitted, disputed, refunded };
}
