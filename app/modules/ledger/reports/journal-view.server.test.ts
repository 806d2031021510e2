import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { currentDatabase, db } from "~/db/client.server";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { captureStatements, explainGeneric, planText, type PlanNode } from "../../../../tests/helpers/plans";
import { Accounts } from "../accounts.server";
import { postEntry } from "../journal.server";
import { journalPage, parseJournalFilters, POSTINGS_SHOWN } from "./journal-view.server";

useTestDatabase();

const filters = (query: string) => parseJournalFilters(new URLSearchParams(query));

describe("the journal view", () => {
  let miaId: number;
  let paulId: number;

  beforeAll(async () => {
    await seedDemoData();
    miaId = (await findUserByEmail("member@example.com"))!.id;
    paulId = (await findUserByEmail("producer@example.com"))!.id;
    // A suspense entry with many postings, and a small one between two members.
    await db().transaction(async (tx) => {
      await postEntry(tx, {
        kind: "statement_import",
        memo: "many",
        postings: [
          { account: Accounts.receipts("digital"), amountMicros: -30_000_000n },
          ...Array.from({ length: 30 }, () => ({ account: Accounts.suspense(), amountMicros: 1_000_000n })),
        ],
      });
      await postEntry(tx, {
        kind: "suspense_match",
        memo: "matched",
        postings: [
          { account: Accounts.suspense(), amountMicros: -2_000_000n },
          { account: Accounts.earnings(miaId), amountMicros: 1_500_000n, source: "digital" },
          { account: Accounts.earnings(paulId), amountMicros: 500_000n, source: "digital" },
        ],
      });
    });
  });

  it("parses the query, ignoring what is not a filter", () => {
    expect(filters("account=earnings&member=%20mia%20&kind=held_release&from=2026-01-01&to=2026-02-30&page=3")).toEqual({
      account: "earnings",
      member: "mia",
      kind: "held_release",
      from: "2026-01-01",
      to: null,
      page: 3,
    });
    expect(filters("account=bogus&kind=DROP%20TABLE&page=-1")).toMatchObject({ account: null, kind: null, page: 1 });
  });

  it("lists entries newest first with their postings, bounded, and filters by account, member, kind and dates", async () => {
    const all = await journalPage(filters(""));
    expect(all.total).toBe(2);
    expect(all.entries.map((e) => e.kind)).toEqual(["suspense_match", "statement_import"]);
    expect(all.kinds).toEqual(["statement_import", "suspense_match"]);
    const big = all.entries[1]!;
    expect(big.postings).toHaveLength(POSTINGS_SHOWN);
    expect(big.morePostings).toBe(true);
    const small = all.entries[0]!;
    expect(small.postings.map((p) => [p.accountKind, p.member?.id ?? null, p.amountMicros])).toEqual([
      ["suspense", null, "-2000000"],
      ["earnings", miaId, "1500000"],
      ["earnings", paulId, "500000"],
    ]);

    const paul = await journalPage(filters(`member=${paulId}`));
    expect(paul.entries.map((e) => e.id)).toEqual([small.id]);
    expect(paul.entries[0]!.postings.map((p) => p.member?.id)).toEqual([paulId]);
    const bySearch = await journalPage(filters("member=producer%40example"));
    expect(bySearch.entries[0]!.postings.map((p) => p.member?.id)).toEqual([paulId]);
    expect((await journalPage(filters("account=receipts"))).entries.map((e) => e.id)).toEqual([big.id]);
    expect((await journalPage(filters("kind=suspense_match"))).total).toBe(1);
    expect((await journalPage(filters("from=2000-01-01&to=2000-12-31"))).total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await journalPage(filters(`from=${today}&to=${today}`))).total).toBe(2);
    expect((await journalPage(filters("member=nobody-like-this"))).total).toBe(0);
  });

  it("reads an entry's first postings in id order from the entry index, without sorting all of a large entry's", async () => {
    await db().transaction((tx) =>
      postEntry(tx, {
        kind: "statement_import",
        memo: "large",
        postings: [
          { account: Accounts.receipts("digital"), amountMicros: -20_000_000_000n },
          ...Array.from({ length: 20_000 }, () => ({ account: Accounts.suspense(), amountMicros: 1_000_000n })),
        ],
      }),
    );
    await db().execute(sql`analyze postings`);
    const { result, statements } = await captureStatements(() => journalPage(filters("")));
    expect(result.entries[0]!.postings).toHaveLength(POSTINGS_SHOWN);
    const explained = await explainGeneric(currentDatabase()!.url, statements, ["postings"]);
    const shown = explained.find((e) => /cross join lateral/.test(e.text))!;
    const nodes: string[] = [];
    const walk = (node: PlanNode) => {
      nodes.push(`${node["Node Type"]}${node["Index Name"] ? ` ${node["Index Name"]}` : ""}`);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(shown.plan!);
    expect(nodes, planText(shown.plan)).toContain("Index Scan postings_entry_idx");
    expect(
      nodes.filter((n) => n.startsWith("Sort")),
      planText(shown.plan),
    ).toEqual([]);
    expect(shown.fullScans).toEqual([]);
  });
});
