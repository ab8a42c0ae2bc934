import { measureCrudPairs } from '../../../bench/lib/crud-pairs';
import { Scenario } from '../../../bench/lib/scenario';

const window = (rps: number, p50: number, cpu: { server: number; postgres: number } | null = null): Scenario => ({
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
  cpu: cpu && { service_ms: cpu.server, postgres_ms: cpu.postgres, client_ms: 0.1, machine_busy: 0.5, others_busy: 0 },
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

  it("gives each side's CPU per topup in the pairs as medians, and none when a window could not read it", async () => {
    const peerCpu = [
      { server: 1.6, postgres: 2.9 },
      { server: 2.5, postgres: 2.7 },
      { server: 1.9, postgres: 3.0 },
    ];
    const serviceCpu = [
      { server: 3.4, postgres: 1.8 },
      { server: 2.7, postgres: 1.6 },
      { server: 3.0, postgres: 2.2 },
    ];
    let p = 0;
    let s = 0;
    const result = await measureCrudPairs({
      pairs: 3,
      seconds: 6,
      connections: 1,
      peer: async () => window(250, 4, peerCpu[p++]),
      service: async () => window(200, 5, serviceCpu[s++]),
    });
    expect(result.pairs[1]).toMatchObject({ service_server_cpu_ms: 2.7, peer_postgres_cpu_ms: 2.7 });
    expect(result.service_server_cpu_ms_median).toBe(3);
    expect(result.service_postgres_cpu_ms_median).toBe(1.8);
    expect(result.peer_server_cpu_ms_median).toBe(1.9);
    expect(result.peer_postgres_cpu_ms_median).toBe(2.9);

    let q = 0;
    const unread = await measureCrudPairs({
      pairs: 2,
      seconds: 6,
      connections: 1,
      peer: async () => window(250, 4, q++ === 0 ? null : { server: 2, postgres: 3 }),
      service: async () => window(200, 5, { server: 3, postgres: 2 }),
    });
    expect(unread.peer_server_cpu_ms_median).toBeNull();
    expect(unread.service_server_cpu_ms_median).toBe(3);
  });
});
