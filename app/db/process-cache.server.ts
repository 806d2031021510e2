/**
 * Values read on nearly every page that change rarely (the product config, the latest app version,
 * reference options), kept in this process's memory. The code that changes one invalidates it on the
 * spot, and every other app node is told to drop its copy through the cache bus (app/modules/cache-bus, decision
 * 034) when it runs. A copy also expires after `ttlMs` (30 s by default), the staleness decision 013 accepted
 * before the bus: the last resort should a message be lost. A failed load is not cached.
 */
export interface ProcessCache<T> {
  readonly name: string;
  get(): Promise<T>;
  /** The value changed: drops this process's copy and tells the other nodes to drop theirs. */
  invalidate(): void;
  /** Drops this process's copy only (another node changed it, or this node wants a fresh read). */
  invalidateHere(): void;
}

const caches = new Map<string, ProcessCache<unknown>>();

/** What tells the other nodes (set by the cache bus while it runs). */
let broadcast: ((name: string) => void) | undefined;

export function processCache<T>(name: string, load: () => Promise<T>, options: { ttlMs?: number } = {}): ProcessCache<T> {
  const ttlMs = options.ttlMs ?? 30_000;
  let entry: { value: Promise<T>; expiresAt: number } | null = null;
  const cache: ProcessCache<T> = {
    name,
    get() {
      if (entry && entry.expiresAt > Date.now()) return entry.value;
      // Promise.resolve: a lazy thenable (a Drizzle query) would otherwise run again for every reader.
      const value = Promise.resolve(load());
      const current = { value, expiresAt: Date.now() + ttlMs };
      entry = current;
      // Forget a failure, so the next request tries again (only if no newer load replaced it).
      value.catch(() => {
        if (entry === current) entry = null;
      });
      return value;
    },
    invalidate() {
      entry = null;
      broadcast?.(name);
    },
    invalidateHere() {
      entry = null;
    },
  };
  // Names are what nodes tell one another, so one cache a name; a module evaluated again (a development reload)
  // replaces its cache.
  caches.set(name, cache as ProcessCache<unknown>);
  return cache;
}

/** Drops this process's copy of the cache named `name` (a message from another node); unknown names are ignored. */
export function invalidateProcessCache(name: string): void {
  caches.get(name)?.invalidateHere();
}

/** Forgets every cached value in this process (the database was swapped; the cache bus reconnected). */
export function invalidateProcessCaches(): void {
  for (const cache of caches.values()) cache.invalidateHere();
}

/** The cache bus sets what tells the other nodes when a cache is invalidated here (undefined: nobody is told). */
export function setProcessCacheBroadcast(tell: ((name: string) => void) | undefined): void {
  broadcast = tell;
}
