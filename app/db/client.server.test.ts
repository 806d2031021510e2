import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/helpers/database";
import { preparingClient } from "./client.server";

describe("preparingClient", () => {
  let pool: pg.Pool;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    // One connection, so that the statements it prepared can be read back from it; two named texts at most.
    pool = new pg.Pool({ connectionString: database.url, max: 1, Client: preparingClient(pg.Client, 2) });
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  const prepared = async () =>
    (await pool.query("select name, statement from pg_prepared_statements order by name")).rows as Array<{ name: string; statement: string }>;

  it("prepares each parameterised text once per connection and reuses it, results unchanged", async () => {
    for (const n of [1, 2, 3]) {
      // drizzle's call: the config, then the values.
      const result = await pool.query({ text: "select $1::int * 2 as doubled", rowMode: "array" }, [n]);
      expect(result.rows).toEqual([[n * 2]]);
    }
    expect((await pool.query({ text: "select $1::text as word", values: ["hi"] })).rows).toEqual([{ word: "hi" }]);
    expect(await prepared()).toEqual([
      { name: "backline_1", statement: "select $1::int * 2 as doubled" },
      { name: "backline_2", statement: "select $1::text as word" },
    ]);
  });

  it("leaves text-only statements, named ones and texts past the limit unnamed", async () => {
    await pool.query({ text: "select 1 as one; select 2 as two" });
    await pool.query("select $1::int as plain", [1]);
    await pool.query({ text: "select $1::int as mine", values: [1], name: "chosen" });
    expect((await pool.query({ text: "select $1::int + 1 as third", values: [1] })).rows).toEqual([{ third: 2 }]);
    expect((await prepared()).map((s) => s.name)).toEqual(["backline_1", "backline_2", "chosen"]);
  });
});
