import fc from 'fast-check';
import { debitEventId, isDebitEventOf } from '../../../../src/application/orders/debit-event-id';
import { deterministicEventId } from '../../../../src/application/shared/event-ids';

const orderIdAt = (second: number, random: string): string => `ord_${second.toString(16).padStart(8, '0')}${random}`;
const hex16 = fc.stringMatching(/^[0-9a-f]{16}$/);
const second = fc.integer({ min: 0, max: 0xffffffff });

describe("an order's debit event id", () => {
  it('begins with the order id’s creation second and is a UUID v8, the same every time it is made', () => {
    fc.assert(
      fc.property(second, hex16, (at, random) => {
        const orderId = orderIdAt(at, random);
        const id = debitEventId(orderId);
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(id.slice(0, 8)).toBe(at.toString(16).padStart(8, '0'));
        expect(debitEventId(orderId)).toBe(id);
      }),
    );
  });

  it('orders debits by their orders’ seconds, as the index compares UUIDs byte by byte', () => {
    fc.assert(
      fc.property(second, second, hex16, hex16, (a, b, randomA, randomB) => {
        fc.pre(a !== b);
        const [earlier, later] = a < b ? [a, b] : [b, a];
        expect(debitEventId(orderIdAt(earlier, randomA)) < debitEventId(orderIdAt(later, randomB))).toBe(true);
      }),
    );
  });

  it('differs between orders of the same second', () => {
    expect(debitEventId(orderIdAt(1_800_000_000, '0000000000000001'))).not.toBe(
      debitEventId(orderIdAt(1_800_000_000, '0000000000000002')),
    );
  });

  it('recognises the debit by its id now and by the id releases before decision 0166 gave it, and no other event', () => {
    const orderId = orderIdAt(1_800_000_000, '00c0ffee00d0d0ba');
    expect(isDebitEventOf(orderId, debitEventId(orderId))).toBe(true);
    expect(isDebitEventOf(orderId, deterministicEventId(orderId, 'WalletDebited'))).toBe(true);
    expect(isDebitEventOf(orderId, deterministicEventId(orderId, 'WalletRefunded'))).toBe(false);
    expect(isDebitEventOf(orderId, debitEventId(orderIdAt(1_800_000_000, '00c0ffee00d0d0bb')))).toBe(false);
  });

  it('keeps the earlier id for an order id that does not begin with a second', () => {
    expect(debitEventId('ord_first_request_0001')).toBe(
      deterministicEventId('ord_first_request_0001', 'WalletDebited'),
    );
  });
});
