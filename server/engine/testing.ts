// In-memory implementations of the engine's dependencies, for tests and for
// loading server/engine in plain Node.
import type { EngineDeps } from "./engine";
import type { StoreAccess } from "./types";

export class MemoryStores implements StoreAccess {
  readonly global = new Map<string, unknown>();
  readonly chain = new Map<string, unknown>();
  getGlobal(ns: string, key: string) {
    return this.global.get(`${ns}\u0000${key}`);
  }
  getChain(ns: string, chainId: string, key: string) {
    return this.chain.get(`${ns}\u0000${chainId}\u0000${key}`);
  }
  setGlobal(ns: string, key: string, value: unknown) {
    this.global.set(`${ns}\u0000${key}`, value);
  }
  setChain(ns: string, chainId: string, key: string, value: unknown) {
    this.chain.set(`${ns}\u0000${chainId}\u0000${key}`, value);
  }
}

/** Deterministic randomness (mulberry32). */
export function seededRandom(seed = 42) {
  let a = seed >>> 0;
  return {
    next() {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

export function memoryDeps(opts: { now?: number; files?: Record<string, string> } = {}): EngineDeps & { stores: MemoryStores; uses: Map<string, number>; clockAt: { now: number } } {
  const clockAt = { now: opts.now ?? Date.UTC(2026, 0, 1) };
  const uses = new Map<string, number>();
  const files = opts.files ?? {};
  return {
    clockAt,
    clock: { now: () => clockAt.now },
    random: seededRandom(),
    stores: new MemoryStores(),
    files: { read: (_ns, name) => files[name] },
    uses,
    async takeUse(id, limit) {
      const used = uses.get(id) ?? 0;
      if (used >= limit) return false;
      uses.set(id, used + 1);
      return true;
    },
  };
}
