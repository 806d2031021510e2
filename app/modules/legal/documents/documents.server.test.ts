import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { legalDocumentDrafts, legalDocuments, legalDocumentVersions, signatures, users } from "~/db/schema";
import { createUser } from "../../../../tests/helpers/factories";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { agreedToAllDocumentsSql, findPublishedDocument, listPublishedDocuments, pendingDocumentsFor, signDocuments } from "../legal.server";
import { pendingDocumentsWithChanges } from "./agreement-changes.server";
import { documentChanges, documentText } from "./document-changes.server";
import { DocumentFormSchema } from "./document-schemas";
import {
  createDocument,
  discardDocumentDraft,
  DocumentValidationError,
  getDocumentForEdit,
  listDocuments,
  publishDocumentDraft,
  saveDocumentDraft,
  withdrawDocument,
} from "./documents.server";

useTestDatabase();

let slugCounter = 0;
const slug = (base: string) => `${base}-${++slugCounter}`;

async function admin() {
  return createUser({ acctType: 2, roleId: 1 });
}

/** The gate's own rule, as the session statement evaluates it. */
async function agreed(userId: number): Promise<boolean> {
  const [row] = await db()
    .select({ ok: agreedToAllDocumentsSql(sql`${userId}`) })
    .from(users)
    .where(eq(users.id, userId));
  return Boolean(row!.ok);
}

async function signAll(userId: number) {
  const pending = await pendingDocumentsFor(userId);
  await signDocuments({ userId, documentIds: pending.map((d) => d.id), ip: "127.0.0.1", userAgent: "test" });
}

describe("legal documents: drafts, versions and the gate", () => {
  it("creates an unpublished document whose text is a draft, invisible to the public and to the gate", async () => {
    const a = await admin();
    const member = await createUser();
    await signAll(member.id);
    const s = slug("cookies");
    const { id } = await createDocument({ name: "Cookie Policy", slug: s, required: true, content: "<p>We use cookies.</p>", adminId: a.id });
    expect(await findPublishedDocument(s)).toBeUndefined();
    expect((await listPublishedDocuments()).map((d) => d.slug)).not.toContain(s);
    expect(await agreed(member.id)).toBe(true);
    const doc = await getDocumentForEdit(id);
    expect(doc).toMatchObject({ name: "Cookie Policy", published: false, version: null, nextVersion: 1, publishedContent: "" });
    expect(doc!.draft!.content).toBe("<p>We use cookies.</p>");
    const list = await listDocuments({ page: 1 });
    expect(list.documents.find((d) => d.id === id)).toMatchObject({ status: "draft", hasDraft: true, version: null });
  });

  it("edits a draft without touching the published text, then publishes it as the next version, which sends users back through the gate with the diff", async () => {
    const a = await admin();
    const s = slug("terms");
    const { id } = await createDocument({ name: "Terms", slug: s, required: true, content: "<h2>Terms</h2><p>You may use the service.</p>", adminId: a.id });
    expect(await publishDocumentDraft(id, a.id)).toEqual({ ok: true, version: 1 });

    const member = await createUser();
    expect(await agreed(member.id)).toBe(false);
    // Never agreed before: listed without a diff.
    expect((await pendingDocumentsWithChanges(member.id)).find((d) => d.id === id)?.changes).toBeNull();
    await signAll(member.id);
    expect(await agreed(member.id)).toBe(true);

    await saveDocumentDraft(id, { name: "Terms", slug: s, required: true, content: "<h2>Terms</h2><p>You may use the service for music.</p>", adminId: a.id });
    // The draft changes nothing users see.
    expect((await findPublishedDocument(s))!.content).toBe("<h2>Terms</h2><p>You may use the service.</p>");
    expect(await agreed(member.id)).toBe(true);
    const draft = await getDocumentForEdit(id);
    expect(draft).toMatchObject({ published: true, version: 1, nextVersion: 2 });
    expect(draft!.draft!.content).toContain("for music");

    expect(await publishDocumentDraft(id, a.id)).toEqual({ ok: true, version: 2 });
    const published = await findPublishedDocument(s);
    expect(published).toMatchObject({ version: 2, content: "<h2>Terms</h2><p>You may use the service for music.</p>" });
    expect(await agreed(member.id)).toBe(false);
    const [pending] = (await pendingDocumentsWithChanges(member.id)).filter((d) => d.id === id);
    expect(pending!.changes!.sinceVersion).toBe(1);
    expect(pending!.changes!.parts!.filter((p) => p.kind === "added").map((p) => p.text.trim())).toEqual(["for music"]);
    expect(pending!.changes!.parts!.filter((p) => p.kind === "removed")).toEqual([]);

    await signAll(member.id);
    expect(await agreed(member.id)).toBe(true);
    const versions = await db().select().from(legalDocumentVersions).where(eq(legalDocumentVersions.documentId, id));
    expect(versions.map((v) => v.version).sort()).toEqual([1, 2]);
    const edit = await getDocumentForEdit(id);
    expect(edit!.draft).toBeNull();
    expect(edit!.versions.map((v) => [v.version, v.signatures])).toEqual([
      [2, 1],
      [1, 1],
    ]);
  });

  it("a new version of a document that is not required asks nobody", async () => {
    const a = await admin();
    const s = slug("optional");
    const { id } = await createDocument({ name: "Optional", slug: s, required: false, content: "<p>One</p>", adminId: a.id });
    await publishDocumentDraft(id, a.id);
    const member = await createUser();
    await signAll(member.id);
    await saveDocumentDraft(id, { name: "Optional", slug: s, required: false, content: "<p>Two</p>", adminId: a.id });
    expect(await publishDocumentDraft(id, a.id)).toEqual({ ok: true, version: 2 });
    expect(await agreed(member.id)).toBe(true);
  });

  it("refuses to publish without a draft or with the text in force unchanged; discarding keeps the published text", async () => {
    const a = await admin();
    const s = slug("same");
    const { id } = await createDocument({ name: "Same", slug: s, required: false, content: "<p>Same</p>", adminId: a.id });
    await publishDocumentDraft(id, a.id);
    expect(await publishDocumentDraft(id, a.id)).toEqual({ ok: false, reason: "no_draft" });
    await saveDocumentDraft(id, { name: "Same", slug: s, required: false, content: "<p>Same</p>", adminId: a.id });
    expect((await getDocumentForEdit(id))!.draft).toBeNull();
    await db().insert(legalDocumentDrafts).values({ documentId: id, content: "<p>Same</p>" });
    expect(await publishDocumentDraft(id, a.id)).toEqual({ ok: false, reason: "unchanged" });
    await saveDocumentDraft(id, { name: "Same", slug: s, required: false, content: "<p>Other</p>", adminId: a.id });
    expect(await discardDocumentDraft(id)).toBe(true);
    expect((await findPublishedDocument(s))!.content).toBe("<p>Same</p>");
    expect(await publishDocumentDraft(999_999, a.id)).toEqual({ ok: false, reason: "not_found" });
  });

  it("withdraws a document from the public pages and the gate; publishing again makes a new version", async () => {
    const a = await admin();
    const s = slug("withdrawn");
    const { id } = await createDocument({ name: "Withdrawn", slug: s, required: true, content: "<p>Text</p>", adminId: a.id });
    await publishDocumentDraft(id, a.id);
    const member = await createUser();
    const pendingSlugs = async () => (await pendingDocumentsFor(member.id)).map((d) => d.slug);
    expect(await pendingSlugs()).toContain(s);
    expect(await withdrawDocument(id)).toBe(true);
    expect(await withdrawDocument(id)).toBe(false);
    expect(await pendingSlugs()).not.toContain(s);
    expect(await findPublishedDocument(s)).toBeUndefined();
    expect((await listDocuments({ page: 1 })).documents.find((d) => d.id === id)).toMatchObject({ status: "unpublished", version: 1, hasDraft: true });
    expect(await publishDocumentDraft(id, a.id)).toEqual({ ok: true, version: 2 });
  });

  it("continues the numbering of documents published before versions were kept", async () => {
    const a = await admin();
    const s = slug("legacy");
    const [doc] = await db().insert(legalDocuments).values({ name: "Legacy", slug: s, content: "<p>Old</p>", version: 3, published: true }).returning();
    const member = await createUser();
    await db().insert(signatures).values({ userId: member.id, documentId: doc!.id, documentVersion: 3 });
    await saveDocumentDraft(doc!.id, { name: "Legacy", slug: s, required: true, content: "<p>New</p>", adminId: a.id });
    expect(await publishDocumentDraft(doc!.id, a.id)).toEqual({ ok: true, version: 4 });
    // The old text is not on record: the user learns the version they agreed to, without a diff.
    const [pending] = (await pendingDocumentsWithChanges(member.id)).filter((d) => d.id === doc!.id);
    expect(pending!.changes).toEqual({ sinceVersion: 3, parts: null });
  });

  it("keeps slugs unique and needs readable text", async () => {
    const a = await admin();
    const s = slug("unique");
    const { id } = await createDocument({ name: "Unique", slug: s, required: false, content: "<p>x</p>", adminId: a.id });
    await expect(createDocument({ name: "Other", slug: s, required: false, content: "<p>y</p>", adminId: a.id })).rejects.toMatchObject({
      fieldErrors: { slug: ["Another document already uses this slug."] },
    });
    const other = await createDocument({ name: "Other", slug: slug("other"), required: false, content: "<p>y</p>", adminId: a.id });
    await expect(saveDocumentDraft(other.id, { name: "Other", slug: s, required: false, content: "<p>y</p>", adminId: a.id })).rejects.toBeInstanceOf(
      DocumentValidationError,
    );
    await expect(
      createDocument({ name: "Empty", slug: slug("empty"), required: false, content: "<script>alert(1)</script>", adminId: a.id }),
    ).rejects.toMatchObject({
      fieldErrors: { content: [expect.stringContaining("nothing readable")] },
    });
    void id;
  });

  it("lists each document's own state, whatever the ids of other tables' rows", async () => {
    const a = await admin();
    const s = slug("many-versions");
    const { id } = await createDocument({ name: "Many", slug: s, required: false, content: "<p>0</p>", adminId: a.id });
    // Enough version rows that their ids pass the documents' ids (a subquery reading "id" unqualified would match them).
    for (let n = 1; n <= 40; n++) {
      await saveDocumentDraft(id, { name: "Many", slug: s, required: false, content: `<p>${n}</p>`, adminId: a.id });
      await publishDocumentDraft(id, a.id);
    }
    const fresh = await createDocument({ name: "Fresh", slug: slug("fresh"), required: false, content: "<p>new</p>", adminId: a.id });
    const member = await createUser();
    await signDocuments({ userId: member.id, documentIds: [id], ip: "127.0.0.1", userAgent: "test" });
    const rows = (await listDocuments({ page: 1, pageSize: 100 })).documents;
    expect(rows.find((d) => d.id === fresh.id)).toMatchObject({ status: "draft", version: null, hasDraft: true, signedCurrent: 0 });
    expect(rows.find((d) => d.id === id)).toMatchObject({ status: "published", version: 40, hasDraft: false, signedCurrent: 0 });
    await db().insert(signatures).values({ userId: member.id, documentId: id, documentVersion: 40 });
    expect((await listDocuments({ page: 1, pageSize: 100 })).documents.find((d) => d.id === id)!.signedCurrent).toBe(1);
    expect((await getDocumentForEdit(id))!.versions).toHaveLength(40);
  });

  it("validates the form: name, slug shape, required flag", () => {
    const parse = (values: Record<string, string>) => DocumentFormSchema.safeParse(values);
    expect(parse({ name: " Terms ", slug: "Terms-Of-Use", content: "<p>x</p>", required: "on" })).toMatchObject({
      success: true,
      data: { name: "Terms", slug: "terms-of-use", required: true, intent: "save" },
    });
    expect(parse({ name: "", slug: "ok", content: "x" }).success).toBe(false);
    for (const bad of ["two words", "trailing-", "-leading", "double--hyphen", "émoji", "a/b"]) {
      expect(parse({ name: "T", slug: bad, content: "x" }).success, bad).toBe(false);
    }
  });
});

describe("sanitising document HTML (XSS attempts)", () => {
  const attempts = [
    '<p>Hi</p><script>alert("x")</script>',
    '<p onclick="alert(1)">Hi</p>',
    '<img src="x" onerror="alert(1)"><p>Hi</p>',
    '<p><a href="javascript:alert(1)">Hi</a></p>',
    '<p><a href="JaVaScRiPt:alert(1)">Hi</a></p>',
    '<iframe src="https://evil.example"></iframe><p>Hi</p>',
    '<p style="background:url(javascript:alert(1))">Hi</p>',
    '<svg onload="alert(1)"><p>Hi</p></svg>',
    "<p>Hi</p><style>body{display:none}</style>",
  ];

  it("removes scripts, event handlers and javascript: URLs when saved, and keeps the text", async () => {
    const a = await admin();
    for (const html of attempts) {
      const s = slug("xss");
      const { id } = await createDocument({ name: "XSS", slug: s, required: false, content: html, adminId: a.id });
      const [draft] = await db().select().from(legalDocumentDrafts).where(eq(legalDocumentDrafts.documentId, id));
      for (const stored of [draft!.content]) {
        expect(stored, html).not.toMatch(/<script|onclick|onerror|onload|javascript:|<iframe|<style|style=/i);
        expect(stored, html).toContain("Hi");
      }
      await publishDocumentDraft(id, a.id);
      const published = await findPublishedDocument(s);
      expect(published!.content, html).not.toMatch(/<script|onclick|onerror|onload|javascript:|<iframe|<style|style=/i);
    }
  });

  it("sanitises on read too: rows written elsewhere never reach a browser raw", async () => {
    const s = slug("raw");
    await db().insert(legalDocuments).values({ name: "Raw", slug: s, content: '<p onmouseover="x()">Raw</p><script>x()</script>', published: true });
    expect((await findPublishedDocument(s))!.content).toBe("<p>Raw</p>");
  });
});

describe("what changed between versions", () => {
  it("diffs the text, not the markup", () => {
    expect(documentText("<h2>One &amp; two</h2><p>Line<br>break &lt;3</p><ul><li>a</li><li>b</li></ul>")).toBe("One & two\nLine\nbreak <3\na\nb");
    expect(documentChanges("<p>Same</p>", "<p><strong>Same</strong></p>")).toBeNull();
    const parts = documentChanges("<p>We keep data for one year.</p>", "<p>We keep data for two years.</p>")!;
    expect(parts.filter((p) => p.kind === "removed").map((p) => p.text)).toEqual(["one year"]);
    expect(parts.filter((p) => p.kind === "added").map((p) => p.text)).toEqual(["two years"]);
  });

  it("shortens long unchanged runs", () => {
    const long = "word ".repeat(200);
    const parts = documentChanges(`<p>Start</p><p>${long}</p><p>old end</p>`, `<p>Start</p><p>${long}</p><p>new end</p>`)!;
    expect(parts[0]!.text.length).toBeLessThan(400);
    expect(parts[0]!.text).toContain("…");
  });
});
