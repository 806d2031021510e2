import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { legalDocuments, signatures, users } from "~/db/schema";
import { createUser } from "../../../../tests/helpers/factories";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { outstandingCsv, signaturesCsv } from "./signatures-csv.server";
import { iterateOutstanding, iterateSignatures, listOutstanding, listSignatures, parseSignatureFilters, signaturesOfMember } from "./signatures.server";

useTestDatabase();

// Each test starts from no documents, users or signatures (deleting them cascades to the signatures).
beforeEach(async () => {
  await db().delete(legalDocuments);
  await db().delete(users);
});

async function setup() {
  const [terms, privacy] = await db()
    .insert(legalDocuments)
    .values([
      { name: "Terms", slug: "sig-terms", content: "<p>T</p>", version: 2, published: true },
      { name: "Privacy", slug: "sig-privacy", content: "<p>P</p>", version: 1, published: true },
    ])
    .returning();
  const alice = await createUser({ name: "Alice", lastName: "Able", email: "alice-sig@example.test" });
  const bob = await createUser({ name: "Bob", lastName: "Baker", email: "bob-sig@example.test" });
  const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes));
  await db()
    .insert(signatures)
    .values([
      { userId: alice.id, documentId: terms!.id, documentVersion: 1, signedAt: at(1), ip: "10.0.0.1", userAgent: "Firefox" },
      { userId: alice.id, documentId: terms!.id, documentVersion: 2, signedAt: at(2), ip: "10.0.0.2", userAgent: "=cmd|' /C calc'!A0" },
      { userId: alice.id, documentId: privacy!.id, documentVersion: 1, signedAt: at(3), ip: "10.0.0.3", userAgent: "Safari" },
      { userId: bob.id, documentId: terms!.id, documentVersion: 2, signedAt: at(4), ip: "10.0.0.4", userAgent: 'Chrome, "quoted"' },
    ]);
  return { terms: terms!, privacy: privacy!, alice, bob };
}

const none = { document: null, version: null, member: "" };

describe("signatures (admin)", () => {
  it("lists newest first and filters by document, version and member", async () => {
    const { terms, privacy, alice, bob } = await setup();
    const all = await listSignatures({ ...none, page: 1 });
    expect(all.total).toBe(4);
    expect(all.signatures.map((s) => [s.memberName, s.documentName, s.version, s.current])).toEqual([
      ["Bob Baker", "Terms", 2, true],
      ["Alice Able", "Privacy", 1, true],
      ["Alice Able", "Terms", 2, true],
      ["Alice Able", "Terms", 1, false],
    ]);
    expect(all.signatures[0]).toMatchObject({ ip: "10.0.0.4", userAgent: 'Chrome, "quoted"', userId: bob.id, memberEmail: "bob-sig@example.test" });

    expect((await listSignatures({ ...none, document: terms.id, page: 1 })).total).toBe(3);
    expect((await listSignatures({ ...none, document: terms.id, version: 1, page: 1 })).signatures.map((s) => s.userId)).toEqual([alice.id]);
    expect((await listSignatures({ ...none, member: "BOB", page: 1 })).signatures.map((s) => s.userId)).toEqual([bob.id]);
    expect((await listSignatures({ ...none, member: "alice-sig@", document: privacy.id, page: 1 })).total).toBe(1);
    // LIKE wildcards typed in the search are literal.
    expect((await listSignatures({ ...none, member: "%", page: 1 })).total).toBe(0);
    const paged = await listSignatures({ ...none, page: 2, pageSize: 3 });
    expect(paged).toMatchObject({ total: 4, page: 2, pageCount: 2 });
    expect(paged.signatures).toHaveLength(1);
  });

  it("iterates every row in keyset batches under the same filters", async () => {
    const { terms } = await setup();
    const ids: number[] = [];
    for await (const row of iterateSignatures({ ...none, document: terms.id }, 1)) ids.push(row.id);
    const listed = await listSignatures({ ...none, document: terms.id, page: 1 });
    expect(ids).toEqual(listed.signatures.map((s) => s.id));
  });

  it("exports CSV with quoting and neutralised formulas", async () => {
    const { terms } = await setup();
    const response = signaturesCsv({ ...none, document: terms.id, version: 2 });
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="backline-signatures-document-${terms.id}-v2.csv"`);
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toBe("signature_id,member_id,member,email,document_id,document,version,current_version,signed_at,ip,user_agent");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"Chrome, ""quoted"""');
    expect(lines[2]).toContain("'=cmd");
    expect(lines[2]).toContain(",2,yes,2026-01-01T12:02:00.000Z,10.0.0.2,");
  });

  it("parses filters from the query string and ignores malformed ones", () => {
    expect(parseSignatureFilters(new URLSearchParams("document=3&version=2&member=%20ann%20&page=2"))).toEqual({
      document: 3,
      version: 2,
      member: "ann",
      page: 2,
      view: "signed",
    });
    expect(parseSignatureFilters(new URLSearchParams("document=x&version=-1&page=0"))).toEqual({
      document: null,
      version: null,
      member: "",
      page: 1,
      view: "signed",
    });
  });

  it("shows a member their own signatures only", async () => {
    const { alice, bob } = await setup();
    const own = await signaturesOfMember(alice.id);
    expect(own.map((s) => [s.documentName, s.version, s.current])).toEqual([
      ["Privacy", 1, true],
      ["Terms", 2, true],
      ["Terms", 1, false],
    ]);
    expect((await signaturesOfMember(bob.id)).map((s) => s.documentName)).toEqual(["Terms"]);
  });
});

describe("who still has to agree (admin)", () => {
  it("lists each account without a signature of the current version of a required document, with the version it last agreed to", async () => {
    const { terms, privacy, alice, bob } = await setup();
    // Terms is at version 2 (both signed it), Privacy at 1 (Bob never signed it). Carol signed nothing; Sam is
    // suspended and Pat never activated: neither can sign in, so neither is waiting on anyone. Optional documents
    // and drafts are nobody's to agree to.
    const carol = await createUser({ name: "Carol", lastName: "Cole", email: "carol-sig@example.test" });
    await createUser({ name: "Sam", lastName: "Suspended", email: "sam-sig@example.test", suspendedAt: new Date() });
    await createUser({ name: "Pat", lastName: "Pending", email: "pat-sig@example.test", activatedAt: null });
    await db()
      .insert(legalDocuments)
      .values([
        { name: "Optional", slug: "sig-optional", content: "<p>O</p>", version: 1, published: true, required: false },
        { name: "Draft", slug: "sig-draft", content: "<p>D</p>", version: 1, published: false },
      ]);
    await db().insert(signatures).values({ userId: carol.id, documentId: terms.id, documentVersion: 1, signedAt: new Date(), ip: null, userAgent: null });

    const all = await listOutstanding({ document: null, member: "", page: 1 });
    expect(all.outstanding.map((r) => [r.documentName, r.memberName, r.currentVersion, r.lastAgreedVersion])).toEqual([
      ["Terms", "Carol Cole", 2, 1],
      ["Privacy", "Bob Baker", 1, null],
      ["Privacy", "Carol Cole", 1, null],
    ]);
    expect(all.total).toBe(3);
    expect(all.outstanding.some((r) => r.userId === alice.id)).toBe(false);
    expect((await listOutstanding({ document: privacy.id, member: "", page: 1 })).total).toBe(2);
    expect((await listOutstanding({ document: null, member: "bob-sig", page: 1 })).outstanding.map((r) => r.userId)).toEqual([bob.id]);
    expect((await listOutstanding({ document: null, member: "", page: 2, pageSize: 2 })).outstanding.map((r) => r.memberName)).toEqual(["Carol Cole"]);

    // The CSV: the same rows under the same filters, in keyset batches however small.
    const rows: string[] = [];
    for await (const r of iterateOutstanding({ document: null, member: "" }, 1)) rows.push(`${r.documentName}:${r.memberName}`);
    expect(rows).toEqual(["Terms:Carol Cole", "Privacy:Bob Baker", "Privacy:Carol Cole"]);
    const csv = await outstandingCsv({ document: privacy.id, member: "" }).text();
    expect(csv.trim().split("\r\n")).toEqual([
      "member_id,member,email,document_id,document,current_version,last_agreed_version",
      `${bob.id},Bob Baker,bob-sig@example.test,${privacy.id},Privacy,1,`,
      `${carol.id},Carol Cole,carol-sig@example.test,${privacy.id},Privacy,1,`,
    ]);
    expect(parseSignatureFilters(new URLSearchParams("view=outstanding")).view).toBe("outstanding");
    expect(parseSignatureFilters(new URLSearchParams("view=other")).view).toBe("signed");
  });
});
