import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import type { User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { DIGITAL_HEADER, importStatement } from "../../../../tests/helpers/statements";
import { matchSuspenseLine } from "../imports/suspense-matching.server";
import { salesBreakdown, salesTotals, type SalesFilters } from "./sales-reports.server";

useTestDatabase();

let admin: User;
const noFilters: SalesFilters = { from: null, to: null, store: null, country: null };
const admin$ = { type: "admin" } as const;

beforeAll(async () => {
  await seedDemoData();
  admin = (await findUserByEmail("admin@example.com"))!;
});

const line = (store: string, title: string, isrc: string, net: string, month = "2026-07") =>
  `AR-1,2026-08-15,${month},${month},${store},,stream,track,US,Midnight Owls,,,${title},${isrc},10,0.1,USD,${net},${net},USD,`;

/** The admin list's figures worked out from every statement line, as the pages read them before the rollups. */
async function fromLines() {
  const { rows } = (await db().execute(sql`
    select coalesce(s.artist_id, r.artist_id, 0) as id, count(*)::int as lines, sum(sl.amount_micros)::text as amount,
      coalesce(sum((select sum(p.amount_micros) from postings p join ledger_accounts a on a.id = p.account_id and a.kind = 'commission'
        where p.statement_line_id = sl.id)), 0)::text as commission
    from statement_lines sl left join songs s on s.id = sl.song_id left join releases r on r.id = sl.release_id
    where sl.kind = 'digital' group by 1 order by 1`)) as unknown as { rows: Array<{ id: number; lines: number; amount: string; commission: string }> };
  return rows;
}

const listed = async () =>
  (await salesTotals(admin$, "digital", noFilters)).map(({ id, lines, amount, commission }) => ({ id, lines, amount, commission })).sort((a, b) => a.id - b.id);

describe("admin sales figures from their rollups", () => {
  it("equal the figures summed over the lines, and follow a match out of suspense", async () => {
    const imported = await importStatement(
      "digital",
      [
        DIGITAL_HEADER,
        line("Spotify", "Northbound", "USBL12600005", "10.00"),
        line("Apple Music", "Late Trains", "USBL12600001", "7.333333", "2026-06"),
        line("Deezer", "Someone else", "GBXXX2600001", "3.00"),
        line("Deezer", "Someone else", "GBXXX2600001", "-1.25"),
      ],
      admin.id,
    );
    expect(await listed()).toEqual(await fromLines());
    const before = await listed();
    expect(before.find((r) => r.id === 0)).toMatchObject({ lines: 2, amount: "1750000", commission: "0" });
    const built = (await db().execute(sql`select count(*)::int as n from admin_sales_rollups where import_id = ${imported.id}`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(built.rows[0]!.n).toBeGreaterThan(0);

    // A match out of suspense gives the two lines an artist: the import's rows are rebuilt on the next read.
    const [unmatched] = (
      (await db().execute(sql`select id from statement_lines where import_id = ${imported.id} and matched_by is null order by line_no limit 1`)) as unknown as {
        rows: Array<{ id: string }>;
      }
    ).rows;
    const [song] = (
      (await db().execute(sql`select id, artist_id from songs where isrc = 'USBL12600005'`)) as unknown as { rows: Array<{ id: number; artist_id: number }> }
    ).rows;
    await matchSuspenseLine(admin.id, Number(unmatched!.id), { songId: song!.id });
    const after = await listed();
    expect(after).toEqual(await fromLines());
    expect(after.find((r) => r.id === 0)).toBeUndefined();
    const artist = after.find((r) => r.id === song!.artist_id)!;
    expect(artist.lines).toBe(before.find((r) => r.id === song!.artist_id)!.lines + 2);

    // The detail's breakdowns: the total and the months add up to the list's row.
    const detail = await salesBreakdown(admin$, "digital", song!.artist_id, noFilters);
    expect(detail.total).toEqual({ lines: artist.lines, amount: artist.amount, commission: artist.commission });
    expect(detail.groups.period.reduce((n, g) => n + g.lines, 0)).toBe(artist.lines);
  });
});
