import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { isrcFromRange, upcFromRange } from "~/modules/catalog/validators/codes";

/**
 * Codes from the ranges the platform owns (config table), for a release without a UPC or a song without
 * an ISRC. Each call advances its counter with ONE upsert (`INSERT ... ON CONFLICT DO UPDATE ...
 * RETURNING`): the row lock makes concurrent callers get consecutive, distinct numbers, with no
 * read-then-write race.
 *
 * Keys: catalog_upc_prefix (default "196589"), catalog_upc_last_number, catalog_isrc_stem (default
 * "USBL126"), catalog_isrc_last_number. The counters hold the LAST number handed out (0 / absent: none).
 * A number whose code is already taken (entered by hand, or seeded) is skipped.
 */
export const UPC_PREFIX_KEY = "catalog_upc_prefix";
export const UPC_LAST_NUMBER_KEY = "catalog_upc_last_number";
export const ISRC_STEM_KEY = "catalog_isrc_stem";
export const ISRC_LAST_NUMBER_KEY = "catalog_isrc_last_number";
export const DEFAULT_UPC_PREFIX = "196589";
export const DEFAULT_ISRC_STEM = "USBL126";

const MAX_SKIPS = 50;

/** Advances a counter by one and answers the new value, in one statement. */
async function nextNumber(key: string): Promise<number> {
  const result = await db().execute(sql`
    insert into app_config (key, value, updated_at) values (${key}, to_jsonb(1), now())
    on conflict (key) do update
      set value = to_jsonb(coalesce(nullif(app_config.value #>> '{}', '')::bigint, 0) + 1), updated_at = now()
    returning value #>> '{}' as value`);
  const rows = (result as unknown as { rows: Array<{ value: string }> }).rows;
  return Number(rows[0]!.value);
}

async function settingText(key: string, fallback: string): Promise<string> {
  const result = await db().execute(sql`select value #>> '{}' as value from app_config where key = ${key}`);
  const rows = (result as unknown as { rows: Array<{ value: string | null }> }).rows;
  const value = rows[0]?.value?.trim();
  return value ? value : fallback;
}

async function upcTaken(upc: string): Promise<boolean> {
  const result = await db().execute(sql`select 1 from releases where ltrim(upc, '0') = ltrim(${upc}, '0') limit 1`);
  return (result as unknown as { rows: unknown[] }).rows.length > 0;
}

async function isrcTaken(isrc: string): Promise<boolean> {
  const result = await db().execute(sql`select 1 from songs where isrc = ${isrc} limit 1`);
  return (result as unknown as { rows: unknown[] }).rows.length > 0;
}

/** The next free UPC-A of the platform's range (12 digits with its check digit). */
export async function assignUpc(): Promise<string> {
  const prefix = await settingText(UPC_PREFIX_KEY, DEFAULT_UPC_PREFIX);
  for (let attempt = 0; attempt < MAX_SKIPS; attempt++) {
    const code = upcFromRange(prefix, await nextNumber(UPC_LAST_NUMBER_KEY));
    if (!(await upcTaken(code))) return code;
  }
  throw new Error("Could not find a free UPC in the platform's range.");
}

/** The next free ISRC of the platform's stem (uppercase, no hyphens, e.g. USBL12600001). */
export async function assignIsrc(): Promise<string> {
  const stem = await settingText(ISRC_STEM_KEY, DEFAULT_ISRC_STEM);
  for (let attempt = 0; attempt < MAX_SKIPS; attempt++) {
    const code = isrcFromRange(stem, await nextNumber(ISRC_LAST_NUMBER_KEY));
    if (!(await isrcTaken(code))) return code;
  }
  throw new Error("Could not find a free ISRC in the platform's range.");
}
