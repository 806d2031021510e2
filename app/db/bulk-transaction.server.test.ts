import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../../tests/helpers/database";
import { pgArrayLiteral, withBulkTransaction } from "./bulk-transaction.server";
import { db } from "./client.server";

useTestDatabase();

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

beforeAll(async () => {
  await db().execute(sql`create table bulk_parent (id int primary key)`);
  await db().execute(sql`create table bulk_child (id int primary key, parent_id int references bulk_parent (id), note text)`);
  await db().execute(sql`create table bulk_guarded (id int primary key, parent_id int references bulk_parent (id))`);
  await db().execute(sql`create function bulk_guarded_noop() returns trigger language plpgsql as $$ begin return new; end $$`);
  await db().execute(sql`create trigger bulk_guarded_noop before insert on bulk_guarded for each row execute function bulk_guarded_noop()`);
  await db().execute(sql`insert into bulk_parent (id) values (1), (2)`);
});

// Tabs, line breaks, backslashes, quotes, a COPY end marker, NUL-free Unicode, and an empty string.
const TRICKY = ["plain", "tab\there", "line\nbreak\r\nend", "back\\slash \\N", 'it\'s "quoted"', "\\.", "Beyoncé – 東京 🎵", ""];

describe("withBulkTransaction", () => {
  it("writes what it is given, value for value, text escaped and NULL as NULL", async () => {
    await withBulkTransaction(async (_tx, bulk) => {
      const rows = bulk.rows("bulk_child", ["id", "parent_id", "note"]);
      TRICKY.forEach((note, i) =>
        rows
          .plain(i + 1)
          .plain(1)
          .text(note)
          .end(),
      );
      rows.plain(100).plain(null).text(null).end();
      expect(rows.count).toBe(TRICKY.length + 1);
      await bulk.write(rows);
    });
    const read = rowsOf<{ id: number; parent_id: number | null; note: string | null }>(
      await db().execute(sql`select id, parent_id, note from bulk_child order by id`),
    );
    expect(read).toEqual([...TRICKY.map((note, i) => ({ id: i + 1, parent_id: 1, note })), { id: 100, parent_id: null, note: null }]);
    await db().execute(sql`delete from bulk_child`);
  });

  it("does not report a commit that the database turned into a rollback", async () => {
    const result = await withBulkTransaction(async (tx) => {
      // A failed statement whose error is swallowed leaves the transaction aborted.
      await tx.execute(sql`insert into bulk_child (id, parent_id) values (7, 999)`).catch(() => {});
      return "committed?";
    }).catch((error: unknown) => error);
    expect(result).toBeInstanceOf(Error);
    const [{ n }] = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from bulk_child`));
    expect(n).toBe(0);
  });

  it("skips the foreign keys only when asked and allowed; the caller then checks (here nobody does, and a bad row goes in)", async () => {
    // The tests connect as a superuser (the embedded cluster's postgres, or the test server's), who may.
    const allowed = await withBulkTransaction(async (_tx, bulk) => {
      const may = await bulk.allowUncheckedReferences(["bulk_child"]);
      const rows = bulk.rows("bulk_child", ["id", "parent_id"]);
      rows.plain(1).plain(999).end();
      await bulk.write(rows, { uncheckedReferences: true });
      // Only those rows: a checked write right after is checked again.
      const checked = bulk.rows("bulk_child", ["id", "parent_id"]);
      checked.plain(2).plain(998).end();
      await expect(bulk.write(checked)).rejects.toThrow();
      expect(may).toBe(true);
      throw new Error("roll back");
    }).catch((error: unknown) => error);
    expect(String(allowed)).toContain("roll back");
    const [{ n }] = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from bulk_child`));
    expect(n).toBe(0);

    const may = await withBulkTransaction(async (_tx, bulk) => {
      const answer = await bulk.allowUncheckedReferences(["bulk_child"]);
      const rows = bulk.rows("bulk_child", ["id", "parent_id"]);
      rows.plain(1).plain(999).end();
      await bulk.write(rows, { uncheckedReferences: true });
      return answer;
    });
    expect(may).toBe(true);
    const [{ dangling }] = rowsOf<{ dangling: number }>(await db().execute(sql`select count(*)::int as dangling from bulk_child where parent_id = 999`));
    expect(dangling).toBe(1);
    await db().execute(sql`delete from bulk_child`);
  });

  it("checks again every statement that follows unchecked writes, through tx as well", async () => {
    const result = await withBulkTransaction(async (tx, bulk) => {
      expect(await bulk.allowUncheckedReferences(["bulk_child"])).toBe(true);
      // Unchecked writes in a row all skip the checks (they share one switch on PostgreSQL).
      for (const id of [1, 2]) {
        const rows = bulk.rows("bulk_child", ["id", "parent_id"]);
        rows
          .plain(id)
          .plain(990 + id)
          .end();
        await bulk.write(rows, { uncheckedReferences: true });
      }
      const [{ n }] = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from bulk_child where parent_id > 990`));
      expect(n).toBe(2);
      await tx.execute(sql`insert into bulk_child (id, parent_id) values (3, 999)`);
    }).catch((error: unknown) => error);
    const error = result as Error & { cause?: unknown };
    expect(`${error.message} ${String(error.cause)}`).toMatch(/foreign key/i);
    const [{ n }] = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from bulk_child`));
    expect(n).toBe(0);
  });

  it("keeps the foreign keys of a table that has a trigger of its own", async () => {
    const result = await withBulkTransaction(async (_tx, bulk) => {
      expect(await bulk.allowUncheckedReferences(["bulk_child", "bulk_guarded"])).toBe(false);
      const rows = bulk.rows("bulk_guarded", ["id", "parent_id"]);
      rows.plain(1).plain(999).end();
      await bulk.write(rows, { uncheckedReferences: true });
    }).catch((error: unknown) => error);
    const error = result as Error & { cause?: unknown };
    expect(`${error.message} ${String(error.cause)}`).toMatch(/foreign key/i);
  });
});

describe("pgArrayLiteral", () => {
  it("passes a column of values as one parameter, exactly", async () => {
    const values = [...TRICKY, "{braces}, and commas", "NULL", null];
    const [{ back }] = rowsOf<{ back: Array<string | null> }>(await db().execute(sql`select ${pgArrayLiteral(values)}::text[] as back`));
    expect(back).toEqual(values);
    const [{ sum }] = rowsOf<{ sum: string }>(
      await db().execute(sql`select sum(v)::text as sum from unnest(${pgArrayLiteral([9_007_199_254_740_993n, -3n, 10])}::bigint[]) v`),
    );
    expect(sum).toBe("9007199254741000");
  });
});
