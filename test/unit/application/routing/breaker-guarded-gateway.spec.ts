import {
  BillFetchUnsupportedError,
  BillQuery,
  NoBillDueError,
  ProviderGateway,
  ProviderUnavailableError,
} from '../../../../src/application/ports/provider-gateway.port';
import { BreakerGuardedGateway } from '../../../../src/application/routing/breaker-guarded-gateway';
import { ProviderBreakers } from '../../../../src/application/routing/provider-breakers';
import { ManualClock } from '../../../support/manual-clock';

const query: BillQuery = { billerId: 1005, consumerNumber: '1234560004', currency: 'INR', params: {}, route: null };

/** What a bill fetch's end tells the provider's breaker. */
describe('a live provider behind its breaker: bill fetches', () => {
  const gatewayThrowing = (error: Error): ProviderGateway => ({
    submit: () => Promise.reject(error),
    poll: () => Promise.reject(error),
    fetchBill: () => Promise.reject(error),
  });

  it('takes "no bill due" as the provider answering: it resets the count of unknown outcomes', async () => {
    const breakers = new ProviderBreakers(new ManualClock(new Date()));
    const down = new BreakerGuardedGateway('setu', gatewayThrowing(new ProviderUnavailableError('5xx')), breakers);
    const noBill = new BreakerGuardedGateway('setu', gatewayThrowing(new NoBillDueError('BFR004')), breakers);
    const unsupported = new BreakerGuardedGateway(
      'setu',
      gatewayThrowing(new BillFetchUnsupportedError('LIST biller')),
      breakers,
    );
    for (let i = 0; i < 4; i++) await expect(down.fetchBill(query, new Date())).rejects.toThrow();
    await expect(unsupported.fetchBill(query, new Date())).rejects.toThrow(BillFetchUnsupportedError);
    expect(breakers.view('setu').unknownInARow).toBe(4);
    await expect(noBill.fetchBill(query, new Date())).rejects.toThrow(NoBillDueError);
    expect(breakers.view('setu')).toMatchObject({ state: 'closed', unknownInARow: 0 });
  });
});
