import { sql } from "drizzle-orm";
import { currentDatabase, db } from "~/db/client.server";

/**
 * Reports cached per member (decision 028, "Reports cached per member"): a member's income and sales figures are
 * computed once per member and ledger change, and kept in this process's memory under a key read in one statement
 * by primary keys:
 * - the entries that touched the member (member_ledger_changes: their count and the last one), written in the
 *   transaction of every entry that posts to the member's accounts or to a held account of theirs, so an entry for
 *   this member changes the key and another member's does not;
 * - the completed imports (their count and the last one's end): an import posts to most members at once and writes
 *   its totals in bulk, so its completion renews every member's key rather than listing them all;
 * - whether the member's email is verified (held shares addressed to their email count once it is).
 * The key is read before the figures, so figures read after a change are never kept under the key before it (at worst
 * they are computed again). Another node's cache reads the same key from the same database: no node serves figures a
 * committed entry changed.
 */

/** Members kept (least recently used dropped first), and reports kept per member (filters make many; oldest dropped). */
const MAX_MEMBERS = 2000;
const MAX_REPORTS = 100;

interface MemberEntry {
  key: string;
  reports: Map<string, Promise<unknown>>;
}

let cache = new Map<number, MemberEntry>();
let cacheDatabase: unknown = null;

/** The member's cache key: one statement, by primary keys (and the few rows of sales_imports). */
async function memberKey(memberId: number): Promise<string> {
  const result = (await db().execute(sql`
    select (select count(*) || ':' || coalesce(max(entry_id), 0) from member_ledger_changes where user_id = ${memberId})
      || '|' || (select count(*) || ':' || coalesce(max(finished_at)::text, '') from sales_imports where status = 'completed')
      || '|' || coalesce((select (email_verified_at is not null)::text from users where id = ${memberId}), '') as key`)) as unknown as {
    rows: Array<{ key: string }>;
  };
  return result.rows[0]!.key;
}

/**
 * The report `name` (the figure and its arguments, e.g. "income:1" or "sales-totals:digital:{filters}") of a member:
 * from the cache while no entry touched the member and no import completed since it was computed, else `load()`.
 */
export async function cachedMemberReport<T>(memberId: number, name: string, load: () => Promise<T>): Promise<T> {
  // A new database (tests, boot) starts an empty cache.
  const database = currentDatabase();
  if (database !== cacheDatabase) {
    cache = new Map();
    cacheDatabase = database;
  }
  const key = await memberKey(memberId);
  let entry = cache.get(memberId);
  if (!entry || entry.key !== key) {
    entry = { key, reports: new Map() };
  }
  // Most recently used last.
  cache.delete(memberId);
  cache.set(memberId, entry);
  if (cache.size > MAX_MEMBERS) cache.delete(cache.keys().next().value!);
  let report = entry.reports.get(name) as Promise<T> | undefined;
  if (!report) {
    report = Promise.resolve(load());
    entry.reports.set(name, report);
    if (entry.reports.size > MAX_REPORTS) entry.reports.delete(entry.reports.keys().next().value!);
    const current = entry;
    // A failed load is not kept.
    report.catch(() => {
      if (current.reports.get(name) === report) current.reports.delete(name);
    });
  }
  return report;
}
