/**
 * Values read on nearly every page that change rarely (the product config, the latest app version,
 * reference options), kept in this process's memory. The code that changes one invalidates it on the
 * spot; other app nodes pick the change up when their copy expires (`ttlMs`, 30 s by default), the
 * staleness decision 013 accepts for these values. A failed load is not cached.
 */
export interface ProcessCache<T> {
  get(): Promise<T>;
  invalidate(): void;
}

const caches = new Set<ProcessCache<unknown>>();

export function processCache<T>(load: () => Promise<T>, options: { ttlMs?: number } = {}): ProcessCache<T> {
  const ttlMs = options.ttlMs ?? 30_000;
  let entry: { value: Promise<T>; expiresAt: number } | null = null;
  const cache: ProcessCache<T> = {
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
    },
  };
  caches.add(cache as ProcessCache<unknown>);
  return cache;
}

/** Forgets every cached value (the database was swapped: boot, tests). */
export function invalidateProcessCaches(): void {
  for (const cache of caches) cache.invalidate();
}
