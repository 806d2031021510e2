import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, type Db } from "~/db/client.server";
import { journalEntries, ledgerAccounts, postings, songs, statementLines } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { DIGITAL_HEADER, importStatement } from "../../../../tests/helpers/statements";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { checkReferences } from "./sales-imports.server";

useTestDatabase();

let adminId: number;
let isrc: string;

beforeAll(async () => {
  await seedDemoData();
  adminId = (await findUserByEmail("admin@example.com"))!.id;
  const [song] = await db()
    .select({ isrc: songs.isrc })
    .from(songs)
    .where(sql`${songs.isrc} is not null`)
    .limit(1);
  isrc = song!.isrc!;
});

const none = () => ({
  accounts: new Set<number>(),
  songs: new Set<number>(),
  releases: new Set<number>(),
  members: new Set<number>(),
  versions: new Set<number>(),
});

describe("an import's references, checked in a set (its rows go in without a foreign-key check each)", () => {
  it("every posting and line of an import refers to rows that exist", async () => {
    const done = await importStatement(
      "digital",
      [
        DIGITAL_HEADER,
        `REF-1,2026-08-15,2026-06,2026-06,Spotify,,stream,track,US,Midnight Owls,,,Song,${isrc},1,0.1,USD,1.5,1.5,USD,`,
        "REF-1,2026-08-15,2026-06,2026-06,Spotify,,stream,track,US,Nobody,,,Other,GBXXX2600001,1,0.1,USD,2,2,USD,",
      ],
      adminId,
    );
    const [entry] = await db().select({ id: journalEntries.id }).from(journalEntries).where(eq(journalEntries.importId, done.id));
    const rows = (await db().execute(sql`
      select count(*) filter (where l.id is null)::int as no_line, count(*) filter (where a.id is null)::int as no_account,
        count(*) filter (where p.song_id is not null and s.id is null)::int as no_song, count(*)::int as n
      from ${postings} p left join ${statementLines} l on l.id = p.statement_line_id left join ${ledgerAccounts} a on a.id = p.account_id
      left join ${songs} s on s.id = p.song_id where p.entry_id = ${entry!.id}`)) as unknown as {
      rows: Array<{ no_line: number; no_account: number; no_song: number; n: number }>;
    };
    expect(rows.rows[0]).toMatchObject({ no_line: 0, no_account: 0, no_song: 0 });
    expect(rows.rows[0]!.n).toBeGreaterThanOrEqual(5); // receipts, commission and shares; receipts and suspense
  });

  it("refuses references to rows that do not exist, naming the table", async () => {
    const [song] = await db().select({ id: songs.id }).from(songs).limit(1);
    const [account] = await db().select({ id: ledgerAccounts.id }).from(ledgerAccounts).limit(1);
    await db().transaction(async (tx) => {
      await checkReferences(tx as unknown as Db, 1, { ...none(), songs: new Set([song!.id]), accounts: new Set([account!.id]) });
    });
    await expect(db().transaction((tx) => checkReferences(tx as unknown as Db, 1, { ...none(), songs: new Set([song!.id, 987_654]) }))).rejects.toThrow(
      /1 songs rows that no longer exist/,
    );
    await expect(db().transaction((tx) => checkReferences(tx as unknown as Db, 1, { ...none(), accounts: new Set([987_654]) }))).rejects.toThrow(
      /ledger_accounts/,
    );
    await expect(db().transaction((tx) => checkReferences(tx as unknown as Db, 987_654, none()))).rejects.toThrow(/sales_imports/);
  });
});
