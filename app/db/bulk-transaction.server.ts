import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { sql } from "drizzle-orm";
import { from as copyFrom } from "pg-copy-streams";
import * as schema from "./schema";
import { currentDatabase, type Db } from "./client.server";

/**
 * A transaction that can write many rows fast (docs/money.md "Statements in": COPY). Rows are encoded as they
 * are made, straight into COPY's text format, value by value: `text` for anything that may need escaping,
 * `plain` for values known not to (numbers, ids, codes, ISO dates). Everything written, by `write` or
 * through `tx`, commits or rolls back as one.
 */
export interface BulkRows {
  readonly table: string;
  readonly columns: readonly string[];
  /** A value read as text, escaped as needed; null is NULL. */
  text(value: string | null): this;
  /** A value that needs no escaping (digits, a sign, letters, "-" and "."); null is NULL. */
  plain(value: string | number | bigint | null): this;
  /** Ends the current row. */
  end(): void;
  /** Rows ended so far. */
  readonly count: number;
}

export interface BulkWriter {
  /** An empty set of rows for a table, to fill and then `write`. */
  rows(table: string, columns: readonly string[]): BulkRows;
  /**
   * Writes the rows. With `uncheckedReferences`, the table's foreign-key checks are skipped for these rows
   * when this session may do that (see `referencesUnchecked`): the caller then checks every reference
   * itself, in a set, before it commits (and locks what the rows refer to, as the foreign keys would).
   */
  write(rows: BulkRows, options?: { uncheckedReferences?: boolean }): Promise<void>;
  /**
   * Whether `uncheckedReferences` writes really skip the foreign-key checks in this transaction: the
   * session may set session_replication_role (a superuser, or granted SET on it) and the tables written
   * that way have no trigger other than their foreign keys' (`allowsUncheckedReferences`).
   */
  referencesUnchecked: boolean;
  /** Decides `referencesUnchecked` for these tables (call once, before writing). */
  allowUncheckedReferences(tables: readonly string[]): Promise<boolean>;
}

/** COPY's text format: backslash escapes for the characters it gives meaning to; \N is NULL. */
const COPY_SPECIAL = /[\\\t\n\r]/;

function copyText(value: string): string {
  if (!COPY_SPECIAL.test(value)) return value;
  return value.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");
}

/**
 * A PostgreSQL array literal of text values ('{"a","b\\"c",NULL}'), to pass a whole column as one
 * parameter (`$1::text[]`, or `::int[]`, `::bigint[]`, `::date[]`: the elements are read as that type).
 */
export function pgArrayLiteral(values: ReadonlyArray<string | number | bigint | null>): string {
  let out = "{";
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) out += ",";
    if (value === null || value === undefined) out += "NULL";
    else if (typeof value !== "string") out += String(value);
    else out += `"${value.replace(/[\\"]/g, "\\$&")}"`;
  }
  return `${out}}`;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Rows as COPY text: one line per row, values separated by tabs. */
class CopyRows implements BulkRows {
  out = "";
  count = 0;
  private first = true;
  constructor(
    readonly table: string,
    readonly columns: readonly string[],
  ) {}
  text(value: string | null): this {
    this.out += (this.first ? "" : "\t") + (value === null ? "\\N" : copyText(value));
    this.first = false;
    return this;
  }
  plain(value: string | number | bigint | null): this {
    this.out += (this.first ? "" : "\t") + (value === null ? "\\N" : value);
    this.first = false;
    return this;
  }
  end(): void {
    this.out += "\n";
    this.first = true;
    this.count++;
  }
}

/**
 * Whether this session may skip foreign-key triggers (session_replication_role = replica) for `tables`:
 * it may set the parameter, and the tables carry no trigger of their own (only their foreign keys'
 * internal ones), so that nothing but those checks is skipped.
 */
async function mayUncheck(tx: Db, tables: readonly string[]): Promise<boolean> {
  // has_parameter_privilege (a role granted SET on the parameter) exists from PostgreSQL 15.
  const version = (await tx.execute(sql`select current_setting('server_version_num')::int as n`)) as unknown as { rows: Array<{ n: number }> };
  const granted = (version.rows[0]?.n ?? 0) >= 150_000 ? sql`or has_parameter_privilege('session_replication_role', 'SET')` : sql``;
  const result = (await tx.execute(sql`
    select (current_setting('is_superuser') = 'on' ${granted}) as may_set,
      (select count(*)::int from pg_trigger t where not t.tgisinternal and t.tgrelid in (
        select c.oid from pg_class c where c.relnamespace = current_schema()::regnamespace and c.relname = any(${pgArrayLiteral(tables)}::text[]))) as own_triggers`)) as unknown as {
    rows: Array<{ may_set: boolean; own_triggers: number }>;
  };
  const row = result.rows[0];
  return Boolean(row?.may_set) && row?.own_triggers === 0;
}

/** Runs `work` in one transaction with a bulk writer (COPY) on one connection of the pool. */
export async function withBulkTransaction<T>(work: (tx: Db, bulk: BulkWriter) => Promise<T>): Promise<T> {
  const database = currentDatabase();
  if (!database) throw new Error("The database is not open: call boot() first.");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const client = await database.pool.connect();
  let broken = false;
  // Unchecked writes switch the foreign-key checks off (session_replication_role = replica) and leave them off
  // until anything else runs on the connection: consecutive unchecked writes share one switch (each round trip
  // costs an import a batch's worth of waiting), and every other statement, through `tx` or a checked write,
  // gets the checks back first.
  let unchecking = false;
  const checkAgain = async () => {
    if (!unchecking) return;
    unchecking = false;
    await client.query("set local session_replication_role = origin");
  };
  const checkedClient = new Proxy(client, {
    get(target, property) {
      if (property === "query") {
        return async (...args: unknown[]) => {
          await checkAgain();
          return (target.query as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  try {
    await client.query("begin");
    const tx = drizzle(checkedClient, { schema }) as unknown as Db;
    const bulk: BulkWriter = {
      referencesUnchecked: false,
      async allowUncheckedReferences(tables) {
        bulk.referencesUnchecked = await mayUncheck(tx, tables);
        return bulk.referencesUnchecked;
      },
      rows: (table, columns) => new CopyRows(table, columns),
      async write(rows, options = {}) {
        if (rows.count === 0) return;
        const unchecked = options.uncheckedReferences && bulk.referencesUnchecked;
        if (!unchecked) await checkAgain();
        else if (!unchecking) {
          await client.query("set local session_replication_role = replica");
          unchecking = true;
        }
        const copy = client.query(copyFrom(`copy ${quoteIdent(rows.table)} (${rows.columns.map(quoteIdent).join(", ")}) from stdin`));
        await pipeline(Readable.from([Buffer.from((rows as CopyRows).out, "utf8")]), copy);
      },
    };
    const result = await work(tx, bulk);
    // COMMIT of a transaction that a swallowed error aborted answers ROLLBACK, without an error.
    const committed = await client.query("commit");
    if (committed.command !== "COMMIT")
      throw new Error(`The transaction was rolled back (the database answered ${committed.command} to COMMIT): a statement in it failed.`);
    return result;
  } catch (error) {
    try {
      await client.query("rollback");
    } catch {
      broken = true;
    }
    throw error;
  } finally {
    client.release(broken);
  }
}
