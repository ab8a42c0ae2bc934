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

/** The pairs of the given windows, taken in the order the pairs ask for them. */
const pairsOf = (
  connections: number,
  peer: readonly Scenario[],
  service: readonly Scenario[],
  order: string[] = [],
) => {
  const [peers, services] = [peer.values(), service.values()];
  const next = (windows: Iterator<Scenario>) => windows.next().value as Scenario;
  return measureCrudPairs({
    pairs: peer.length,
    seconds: 6,
    connections,
    peer: async () => (order.push('peer'), next(peers)),
    service: async () => (order.push('service'), next(services)),
  });
};

describe('the service and the CRUD peer in alternating windows', () => {
  it('runs the peer first in even pairs and the service first in odd ones, and takes the median of service ÷ peer', async () => {
    const order: string[] = [];
    const result = await pairsOf(
      64,
      [1000, 2000, 1500].map((rps) => window(rps, 10)),
      [500, 1000, 1500].map((rps) => window(rps, 40)),
      order,
    );
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
    const result = await pairsOf(
      1,
      peerCpu.map((cpu) => window(250, 4, cpu)),
      serviceCpu.map((cpu) => window(200, 5, cpu)),
    );
    expect(result.pairs[1]).toMatchObject({ service_server_cpu_ms: 2.7, peer_postgres_cpu_ms: 2.7 });
    expect(result.service_server_cpu_ms_median).toBe(3);
    expect(result.service_postgres_cpu_ms_median).toBe(1.8);
    expect(result.peer_server_cpu_ms_median).toBe(1.9);
    expect(result.peer_postgres_cpu_ms_median).toBe(2.9);

    const unread = await pairsOf(
      1,
      [window(250, 4), window(250, 4, { server: 2, postgres: 3 })],
      [window(200, 5, { server: 3, postgres: 2 }), window(200, 5, { server: 3, postgres: 2 })],
    );
    expect(unread.peer_server_cpu_ms_median).toBeNull();
    expect(unread.service_server_cpu_ms_median).toBe(3);
  });
});
