import { UnreadableReportError } from '../../../../../src/application/ports/provider-back-office.port';
import { upstreamTransactionOf } from '../../../../../src/infrastructure/providers/setu/setu-back-office';
import { SetuTransaction } from '../../../../../src/infrastructure/providers/setu/setu-records';

const entry = (timestamp: string | null): SetuTransaction => ({
  refId: 'C2Q9ROJ1J9H35UDLH5S0',
  status: 'Success',
  transactionId: 'AX012345678901',
  paymentRefId: 'ord5f2c00000001',
  billerId: 'BESCOM000KAR01',
  amount: '500.00',
  timestamp,
});

/** Setu's transactions list as reconciliation reads it (docs/decisions/0123-scheduled-reconciliation.md). */
describe('an entry of Setu’s transactions list', () => {
  it('is dated by the timestamp we sent, read with its offset', () => {
    expect(upstreamTransactionOf(entry('2026-11-24T18:35:09+05:30'))).toEqual({
      customIdentifier: 'ord_5f2c00000001',
      transactionId: 'AX012345678901',
      status: 'succeeded',
      amount: '500.00',
      currency: 'INR',
      at: '2026-11-24T13:05:09.000Z',
    });
  });

  it('whose timestamp does not read is an error naming the payment and the text, never a payment of 1970', () => {
    for (const [timestamp, detail] of [
      ['24/11/2026 18:35', 'a timestamp that is not a time: "24/11/2026 18:35"'],
      ['2026-11-24T18:35:09', 'a timestamp that is not a time: "2026-11-24T18:35:09"'],
      [null, 'no timestamp'],
    ] as const) {
      const read = () => upstreamTransactionOf(entry(timestamp));
      expect(read).toThrow(UnreadableReportError);
      expect(read).toThrow(`setu: payment AX012345678901 (ord5f2c00000001) of the transactions list has ${detail}`);
    }
  });
});
