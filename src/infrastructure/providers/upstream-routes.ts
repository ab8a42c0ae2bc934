import { readFileSync } from 'node:fs';

/**
 * Which upstream id serves each of our operators and billers at the live provider. Read from a
 * JSON file (RELOADLY_ROUTES_FILE) for now:
 *   {"operators": {"101": 1234}, "billers": {"201": 55}}
 * (our operator or biller id -> the provider's id). Kept to this one file so that its source can
 * be replaced without touching the adapter.
 */
export interface UpstreamRoutes {
  upstreamOperatorId(operatorId: number): Promise<number | null>;
  upstreamBillerId(billerId: number): Promise<number | null>;
}

export class JsonFileUpstreamRoutes implements UpstreamRoutes {
  private constructor(
    private readonly operators: ReadonlyMap<number, number>,
    private readonly billers: ReadonlyMap<number, number>,
  ) {}

  /** No file: no routes (every live order fails before anything is sent). */
  static load(file: string | null): JsonFileUpstreamRoutes {
    if (!file) return new JsonFileUpstreamRoutes(new Map(), new Map());
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const section = (name: 'operators' | 'billers'): Map<number, number> => {
      const entries = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>)[name] : undefined;
      const routes = new Map<number, number>();
      if (entries === undefined) return routes;
      if (!entries || typeof entries !== 'object' || Array.isArray(entries)) throw new Error(`${file}: "${name}" must be an object of our id -> upstream id`);
      for (const [ours, upstream] of Object.entries(entries)) {
        if (!/^\d+$/.test(ours) || typeof upstream !== 'number' || !Number.isInteger(upstream)) throw new Error(`${file}: ${name}.${ours} must map an integer id to an integer id`);
        routes.set(Number(ours), upstream);
      }
      return routes;
    };
    return new JsonFileUpstreamRoutes(section('operators'), section('billers'));
  }

  async upstreamOperatorId(operatorId: number): Promise<number | null> {
    return this.operators.get(operatorId) ?? null;
  }

  async upstreamBillerId(billerId: number): Promise<number | null> {
    return this.billers.get(billerId) ?? null;
  }
}
