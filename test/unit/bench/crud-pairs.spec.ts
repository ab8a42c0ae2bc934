import { measureCrudPairs } from '../../../bench/lib/crud-pairs';
import { Scenario } from '../../../bench/lib/scenario';

const window = (rps: number, p50: number): Scenario => ({
  connections: 64,
  duration_s: 6,
  requests: rps * 6,
  ok: rps * 6,
  rps,
  p50_ms: p50,
  p99_ms: p50 * 2,
  mean_ms: p50,
  max_ms: p50 * 3,
  non_2xx: 0,
  errors: 0,
  timeouts: 0,
  statuses: {},
  sent: rps * 6,
  cpu: null,
});

describe('the service and the CRUD peer in alternating windows', () => {
  it('runs the peer first in even pairs and the service first in odd ones, and takes the median of service ÷ peer', async () => {
    const order: string[] = [];
    const peer = [1000, 2000, 1500];
    const service = [500, 1000, 1500];
    let p = 0;
    let s = 0;
    const result = await measureCrudPairs({
      pairs: 3,
      seconds: 6,
      connections: 64,
      peer: async () => (order.push('peer'), window(peer[p++], 10)),
      service: async () => (order.push('service'), window(service[s++], 40)),
    });
    expect(order).toEqual(['peer', 'service', 'service', 'peer', 'peer', 'service']);
    expect(result.pairs.map((pair) => pair.ratio)).toEqual([0.5, 0.5, 1]);
    expect(result.ratio_median).toBe(0.5);
    expect(result.ratio_max).toBe(1);
    expect(result.service_rps_median).toBe(1000);
    expect(result.peer_rps_median).toBe(1500);
    expect(result.service_p99_ms_median).toBe(80);
    expect(result.peer_p50_ms_median).toBe(10);
  });
});
