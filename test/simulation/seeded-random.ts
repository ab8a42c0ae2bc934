/**
 * A small seeded pseudo-random generator (mulberry32). Every choice of a simulation run comes from
 * one of these, so a seed replays the same run; `fork` gives an independent stream per name (one
 * per order, say), whose draws do not depend on how many draws other streams made.
 */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A uniform draw in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(0, items.length - 1)];
  }

  /** One of the keys, with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let draw = this.next() * total;
    for (const [key, weight] of entries) {
      draw -= weight;
      if (draw < 0) return key;
    }
    return entries[entries.length - 1][0];
  }

  bytes(count: number): Buffer {
    const out = Buffer.alloc(count);
    for (let i = 0; i < count; i++) out[i] = this.int(0, 255);
    return out;
  }

  /** An independent stream named `name`, derived from this generator's seed (not its position). */
  fork(name: string): SeededRandom {
    let hash = this.seed ^ 0x9e3779b9;
    for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
    return new SeededRandom(hash >>> 0);
  }
}
