import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { sql } from "drizzle-orm";
import { from as copyFrom } from "pg-copy-streams";
import * as schema from "./schema";
import { currentDatabase, db, type Db } from "./client.server";

/**
 * A transaction that can write many rows fast (MONEY.md "Statements in": COPY on PostgreSQL, batched
 * multi-row inserts on PGlite). Rows are arrays of already-serialised values (string, or null for NULL),
 * in the order of `columns`. Everything written, by `write` or through `tx`, commits or rolls back as one.
 */
export type BulkRow = Array<string | null>;

export interface BulkWriter {
  write(table: string, columns: readonly string[], rows: readonly BulkRow[]): Promise<void>;
}

/** COPY's text format: backslash escapes for the characters it gives meaning to; \N is NULL. */
function copyText(value: string | null): string {
  if (value === null) return "\\N";
  if (!/[\\\t\n\r]/.test(value)) return value;
  return value.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A SQL literal: an escape string (backslashes and quotes doubled), valid whatever standard_conforming_strings says. */
function sqlLiteral(value: string | null): string {
  if (value === null) return "NULL";
  return /[\\']/.test(value) ? `E'${value.replace(/\\/g, "\\\\").replace(/'/g, "''")}'` : `'${value}'`;
}

// Rows per INSERT on PGlite: literals, not parameters (binding tens of thousands of parameters through the
// query builder cost far more than the database's work).
const ROWS_PER_INSERT = 1000;

function insertWriter(tx: Db): BulkWriter {
  return {
    async write(table, columns, rows) {
      if (rows.length === 0) return;
      const head = `insert into ${quoteIdent(table)} (${columns.map(quoteIdent).join(", ")}) overriding system value values `;
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        let statement = head;
        const end = Math.min(rows.length, i + ROWS_PER_INSERT);
        for (let r = i; r < end; r++) statement += `${r === i ? "" : ","}(${rows[r]!.map(sqlLiteral).join(",")})`;
        await tx.execute(sql.raw(statement));
      }
    },
  };
}

/** Runs `work` in one transaction with a bulk writer: COPY on PostgreSQL, multi-row INSERTs on PGlite. */
export async function withBulkTransaction<T>(work: (tx: Db, bulk: BulkWriter) => Promise<T>): Promise<T> {
  const database = currentDatabase();
  if (!database?.pool) return db().transaction((tx) => work(tx as unknown as Db, insertWriter(tx as unknown as Db)));
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const client = await database.pool.connect();
  let broken = false;
  try {
    await client.query("begin");
    const tx = drizzle(client, { schema }) as unknown as Db;
    const bulk: BulkWriter = {
      async write(table, columns, rows) {
        if (rows.length === 0) return;
        const copy = client.query(copyFrom(`copy ${quoteIdent(table)} (${columns.map(quoteIdent).join(", ")}) from stdin`));
        async function* text() {
          let chunk = "";
          for (const row of rows) {
            chunk += row.map(copyText).join("\t") + "\n";
            if (chunk.length > 1 << 16) {
              yield chunk;
              chunk = "";
            }
          }
          if (chunk) yield chunk;
        }
        await pipeline(Readable.from(text()), copy);
      },
    };
    const result = await work(tx, bulk);
    await client.query("commit");
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
