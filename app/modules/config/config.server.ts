import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { processCache } from "~/db/process-cache.server";
import { appConfig } from "~/db/schema";

const configCache = processCache("config", async () => {
  const rows = await db().select({ key: appConfig.key, value: appConfig.value }).from(appConfig);
  return Object.fromEntries(rows.map((r) => [r.key, r.value])) as Record<string, unknown>;
});

/**
 * The product's key-value settings, as one object. Read on every area
 * page, changed by hand: cached in memory, invalidated by setConfigValue. Callers must not mutate it.
 */
export function readConfig(): Promise<Readonly<Record<string, unknown>>> {
  return configCache.get();
}

export async function setConfigValue(key: string, value: unknown): Promise<void> {
  await db()
    .insert(appConfig)
    .values({ key, value })
    .onConflictDoUpdate({ target: appConfig.key, set: { value, updatedAt: new Date() } });
  configCache.invalidate();
}

export async function readConfigValue<T>(key: string): Promise<T | undefined> {
  const [row] = await db().select({ value: appConfig.value }).from(appConfig).where(eq(appConfig.key, key));
  return row?.value as T | undefined;
}
