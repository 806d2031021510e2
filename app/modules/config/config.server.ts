import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { appConfig } from "~/db/schema";

/** The product's key-value settings (spec section 7, GET config), as one object. */
export async function readConfig(): Promise<Record<string, unknown>> {
  const rows = await db().select({ key: appConfig.key, value: appConfig.value }).from(appConfig);
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

export async function setConfigValue(key: string, value: unknown): Promise<void> {
  await db()
    .insert(appConfig)
    .values({ key, value })
    .onConflictDoUpdate({ target: appConfig.key, set: { value, updatedAt: new Date() } });
}

export async function readConfigValue<T>(key: string): Promise<T | undefined> {
  const [row] = await db().select({ value: appConfig.value }).from(appConfig).where(eq(appConfig.key, key));
  return row?.value as T | undefined;
}
