import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { legalDocuments, signatures } from "~/db/schema";
import { createUser } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import {
  findPublishedDocument,
  hasAgreedToAllDocuments,
  listPublishedDocuments,
  pendingDocumentsFor,
  sanitizeDocumentHtml,
  signDocuments,
} from "./legal.server";

useTestDatabase();

async function document(values: Partial<typeof legalDocuments.$inferInsert> & { slug: string }) {
  const [doc] = await db()
    .insert(legalDocuments)
    .values({ name: values.slug, content: "<p>Text</p>", published: true, required: true, ...values })
    .returning();
  return doc!;
}

describe("legal documents and signatures", () => {
  it("lists only published documents and finds one by slug", async () => {
    await document({ slug: "cookie-policy", name: "Cookie Policy" });
    await document({ slug: "draft-terms", published: false });
    const slugs = (await listPublishedDocuments()).map((d) => d.slug);
    expect(slugs).toContain("cookie-policy");
    expect(slugs).not.toContain("draft-terms");
    expect(await findPublishedDocument("draft-terms")).toBeUndefined();
    expect((await findPublishedDocument("cookie-policy"))!.name).toBe("Cookie Policy");
  });

  it("asks for every required document, records agreement per version, and asks again after a new version", async () => {
    const terms = await document({ slug: "terms-a" });
    const optional = await document({ slug: "optional-a", required: false });
    const user = await createUser();
    const pendingSlugs = () => pendingDocumentsFor(user.id).then((docs) => docs.map((d) => d.slug));
    expect(await pendingSlugs()).toContain("terms-a");
    expect(await pendingSlugs()).not.toContain("optional-a");

    const everyPending = (await pendingDocumentsFor(user.id)).map((d) => d.id);
    const { remaining } = await signDocuments({ userId: user.id, documentIds: everyPending, ip: "1.2.3.4", userAgent: "ua" });
    expect(remaining).toEqual([]);
    expect(await hasAgreedToAllDocuments(user.id)).toBe(true);
    const [signature] = await db().select().from(signatures).where(eq(signatures.documentId, terms.id));
    expect(signature).toMatchObject({ userId: user.id, documentVersion: 1, ip: "1.2.3.4", userAgent: "ua" });

    await db().update(legalDocuments).set({ version: 2 }).where(eq(legalDocuments.id, terms.id));
    expect(await pendingSlugs()).toEqual(["terms-a"]);
    void optional;
  });

  it("signs only what is pending for that user and reports what is left", async () => {
    const a = await document({ slug: "terms-b" });
    const b = await document({ slug: "privacy-b" });
    const user = await createUser();
    const others = (await pendingDocumentsFor(user.id)).filter((d) => d.id !== a.id && d.id !== b.id).map((d) => d.id);
    const { remaining } = await signDocuments({ userId: user.id, documentIds: [a.id, 999_999, ...others], ip: "ip", userAgent: "ua" });
    expect(remaining.map((d) => d.id)).toEqual([b.id]);
    const rows = await db().select().from(signatures).where(eq(signatures.userId, user.id));
    expect(rows.map((r) => r.documentId)).not.toContain(999_999);
  });

  it("strips scripts and event handlers from document HTML", () => {
    const clean = sanitizeDocumentHtml('<h2 onclick="x()">Hi</h2><script>alert(1)</script><a href="javascript:alert(1)">x</a>');
    expect(clean).toBe("<h2>Hi</h2><a>x</a>");
  });
});
