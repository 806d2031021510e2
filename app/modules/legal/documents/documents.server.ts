import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors";
import { pageCountFor } from "~/db/list-queries";
import { legalDocumentDrafts, legalDocuments, legalDocumentVersions, signatures, users } from "~/db/schema";
import { sanitizeDocumentHtml } from "../legal.server";
import { documentText } from "./document-changes.server";
import type { DocumentFormValues } from "./document-schemas";

/**
 * The administrators' side of legal documents (decision 024).
 *
 * - `legal_documents` holds the version in force (`content`, `version`, `published`): what the gate, the
 *   public pages and registration read, unchanged by this module except when publishing or withdrawing.
 * - Name, slug and the required flag are the document's settings and apply when saved.
 * - The text is edited as a draft (`legal_document_drafts`), previewed, then published as the next version
 *   (`legal_document_versions` keeps every version's text). Publishing a required document's new version sends
 *   every user back through the agreement gate on their next request: their signatures name the old version.
 * - HTML is sanitised when saved (and again when read by the public page, for rows written elsewhere).
 */

export const DOCUMENTS_PAGE_SIZE = 25;

export class DocumentValidationError extends Error {
  constructor(readonly fieldErrors: Record<string, string[]>) {
    super("The document is not valid.");
  }
}

const SLUG_TAKEN = { slug: ["Another document already uses this slug."] };
const EMPTY_TEXT = { content: ["Write the document's text: nothing readable is left once unsupported HTML is removed."] };

/** Sanitised HTML with readable text; throws a field error when nothing readable is left. */
function cleanContent(html: string): string {
  const clean = sanitizeDocumentHtml(html).trim();
  if (!documentText(clean).trim()) throw new DocumentValidationError(EMPTY_TEXT);
  return clean;
}

async function slugTaken(slug: string, exceptId?: number): Promise<boolean> {
  const [row] = await db()
    .select({ id: legalDocuments.id })
    .from(legalDocuments)
    .where(and(eq(legalDocuments.slug, slug), exceptId === undefined ? undefined : sql`${legalDocuments.id} <> ${exceptId}`))
    .limit(1);
  return Boolean(row);
}

/* ------------------------------------------------------------------ list */

export type DocumentStatus = "published" | "unpublished" | "draft";

export interface DocumentListRow {
  id: number;
  name: string;
  slug: string;
  required: boolean;
  status: DocumentStatus;
  version: number | null;
  hasDraft: boolean;
  signedCurrent: number;
  updatedAt: string;
}

/** One page of documents by name, with each one's state and how many users signed its version in force. */
export async function listDocuments(query: { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? DOCUMENTS_PAGE_SIZE;
  const page = Math.max(1, Math.floor(query.page));
  const [rows, [totals]] = await Promise.all([
    db()
      .select({
        id: legalDocuments.id,
        name: legalDocuments.name,
        slug: legalDocuments.slug,
        required: legalDocuments.required,
        published: legalDocuments.published,
        version: legalDocuments.version,
        // Written out with the table's name: in a one-table select Drizzle leaves columns unqualified, and a bare
        // "id" inside these subqueries would mean the inner table's own id.
        everPublished: sql<boolean>`exists (select 1 from ${legalDocumentVersions} v where v.document_id = ${legalDocuments}.id)`,
        hasDraft: sql<boolean>`exists (select 1 from ${legalDocumentDrafts} dr where dr.document_id = ${legalDocuments}.id)`,
        signedCurrent: sql<number>`(select count(*)::int from ${signatures} s where s.document_id = ${legalDocuments}.id and s.document_version = ${legalDocuments}.version)`,
        updatedAt: legalDocuments.updatedAt,
      })
      .from(legalDocuments)
      .orderBy(asc(legalDocuments.name), asc(legalDocuments.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db().select({ total: count() }).from(legalDocuments),
  ]);
  const total = totals?.total ?? 0;
  return {
    documents: rows.map((r): DocumentListRow => ({
      id: r.id,
      name: r.name,
      slug: r.slug,
      required: r.required,
      status: r.published ? "published" : r.everPublished ? "unpublished" : "draft",
      version: r.published || r.everPublished ? r.version : null,
      hasDraft: r.hasDraft,
      signedCurrent: r.published ? Number(r.signedCurrent) : 0,
      updatedAt: r.updatedAt.toISOString(),
    })),
    total,
    page,
    pageSize,
    pageCount: pageCountFor(total, pageSize),
  };
}

/* ------------------------------------------------------------------ one document */

export interface DocumentVersionRow {
  version: number;
  name: string;
  content: string;
  publishedAt: string;
  publishedBy: string | null;
  signatures: number;
}

export interface DocumentForEdit {
  id: number;
  name: string;
  slug: string;
  required: boolean;
  published: boolean;
  /** The version in force (or last withdrawn); null before the first publication. */
  version: number | null;
  /** The version that publishing creates. */
  nextVersion: number;
  /** Sanitised published text ("" before the first publication). */
  publishedContent: string;
  /** The draft being edited, sanitised; null when there is none (the editor starts from the published text). */
  draft: { content: string; updatedAt: string; updatedBy: string | null } | null;
  versions: DocumentVersionRow[];
}

/** The version number publishing uses: the one after the newest published (signatures name published versions). */
function nextVersionSql(documentId: number) {
  // A document published before versions were kept has no rows yet: its version in force counts too.
  return sql<number>`greatest(
    coalesce((select max(v.version) from ${legalDocumentVersions} v where v.document_id = ${documentId}), 0),
    (select case when d.published then d.version else 0 end from ${legalDocuments} d where d.id = ${documentId})
  ) + 1`;
}

export async function getDocumentForEdit(id: number): Promise<DocumentForEdit | null> {
  const [doc] = await db()
    .select({
      id: legalDocuments.id,
      name: legalDocuments.name,
      slug: legalDocuments.slug,
      required: legalDocuments.required,
      published: legalDocuments.published,
      version: legalDocuments.version,
      content: legalDocuments.content,
      nextVersion: nextVersionSql(id),
      draftContent: legalDocumentDrafts.content,
      draftUpdatedAt: legalDocumentDrafts.updatedAt,
      draftUpdatedBy: sql<string | null>`(select trim(u.name || ' ' || u.last_name) from ${users} u where u.id = ${legalDocumentDrafts}.updated_by)`,
    })
    .from(legalDocuments)
    .leftJoin(legalDocumentDrafts, eq(legalDocumentDrafts.documentId, legalDocuments.id))
    .where(eq(legalDocuments.id, id))
    .limit(1);
  if (!doc) return null;
  const versions = await db()
    .select({
      version: legalDocumentVersions.version,
      name: legalDocumentVersions.name,
      content: legalDocumentVersions.content,
      publishedAt: legalDocumentVersions.publishedAt,
      publishedBy: sql<string | null>`trim(${users.name} || ' ' || ${users.lastName})`,
      signatures: sql<number>`(select count(*)::int from ${signatures} s where s.document_id = ${id} and s.document_version = ${legalDocumentVersions}.version)`,
    })
    .from(legalDocumentVersions)
    .leftJoin(users, eq(users.id, legalDocumentVersions.publishedBy))
    .where(eq(legalDocumentVersions.documentId, id))
    .orderBy(desc(legalDocumentVersions.version));
  const everPublished = doc.published || versions.length > 0;
  return {
    id: doc.id,
    name: doc.name,
    slug: doc.slug,
    required: doc.required,
    published: doc.published,
    version: everPublished ? doc.version : null,
    nextVersion: Number(doc.nextVersion),
    publishedContent: everPublished ? sanitizeDocumentHtml(doc.content) : "",
    draft:
      doc.draftContent !== null && doc.draftUpdatedAt
        ? { content: sanitizeDocumentHtml(doc.draftContent), updatedAt: doc.draftUpdatedAt.toISOString(), updatedBy: doc.draftUpdatedBy }
        : null,
    versions: versions.map((v) => ({
      version: v.version,
      name: v.name,
      content: sanitizeDocumentHtml(v.content),
      publishedAt: v.publishedAt.toISOString(),
      publishedBy: v.publishedBy,
      signatures: Number(v.signatures),
    })),
  };
}

/* ------------------------------------------------------------------ writes */

type DocumentInput = Pick<DocumentFormValues, "name" | "slug" | "required" | "content">;

/** A new, unpublished document whose text is its first draft. */
export async function createDocument(input: DocumentInput & { adminId: number }): Promise<{ id: number }> {
  const content = cleanContent(input.content);
  if (await slugTaken(input.slug)) throw new DocumentValidationError(SLUG_TAKEN);
  try {
    return await db().transaction(async (tx) => {
      // `content` holds the text in force; an unpublished document has none yet, its text is the draft.
      const [doc] = await tx
        .insert(legalDocuments)
        .values({ name: input.name, slug: input.slug, required: input.required, content: "", published: false, version: 1 })
        .returning({ id: legalDocuments.id });
      await tx.insert(legalDocumentDrafts).values({ documentId: doc!.id, content, updatedBy: input.adminId });
      return { id: doc!.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DocumentValidationError(SLUG_TAKEN);
    throw error;
  }
}

/**
 * Saves the settings (name, slug, required: in force at once) and the text as the draft. The published text
 * is untouched. Returns false when the document does not exist.
 */
export async function saveDocumentDraft(id: number, input: DocumentInput & { adminId: number }): Promise<boolean> {
  const content = cleanContent(input.content);
  if (await slugTaken(input.slug, id)) throw new DocumentValidationError(SLUG_TAKEN);
  try {
    return await db().transaction(async (tx) => {
      const [doc] = await tx
        .update(legalDocuments)
        .set({ name: input.name, slug: input.slug, required: input.required, updatedAt: new Date() })
        .where(eq(legalDocuments.id, id))
        .returning({ content: legalDocuments.content, published: legalDocuments.published });
      if (!doc) return false;
      // Saving the text in force unchanged leaves no draft behind.
      if (doc.published && sanitizeDocumentHtml(doc.content).trim() === content) {
        await tx.delete(legalDocumentDrafts).where(eq(legalDocumentDrafts.documentId, id));
        return true;
      }
      await tx
        .insert(legalDocumentDrafts)
        .values({ documentId: id, content, updatedBy: input.adminId })
        .onConflictDoUpdate({ target: legalDocumentDrafts.documentId, set: { content, updatedBy: input.adminId, updatedAt: new Date() } });
      return true;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DocumentValidationError(SLUG_TAKEN);
    throw error;
  }
}

export type PublishOutcome = { ok: true; version: number } | { ok: false; reason: "not_found" | "no_draft" | "unchanged" };

/**
 * Publishes the draft as the next version: the version is recorded with its text, the document's text in
 * force and version change, and the draft is gone. For a required document, everyone's signatures now name
 * an older version, so the gate (agreedToAllDocumentsSql, read with the session on every request) sends each
 * user to the agreement page on their next request. One transaction; the document row is locked so two
 * administrators publishing at once make two consecutive versions, not one number twice.
 */
export async function publishDocumentDraft(id: number, adminId: number): Promise<PublishOutcome> {
  return db().transaction(async (tx) => {
    const [doc] = await tx
      .select({ id: legalDocuments.id, name: legalDocuments.name, content: legalDocuments.content, published: legalDocuments.published })
      .from(legalDocuments)
      .where(eq(legalDocuments.id, id))
      .for("update");
    if (!doc) return { ok: false, reason: "not_found" } as const;
    const [draft] = await tx.select().from(legalDocumentDrafts).where(eq(legalDocumentDrafts.documentId, id));
    if (!draft) return { ok: false, reason: "no_draft" } as const;
    const content = sanitizeDocumentHtml(draft.content).trim();
    if (doc.published && sanitizeDocumentHtml(doc.content).trim() === content) {
      await tx.delete(legalDocumentDrafts).where(eq(legalDocumentDrafts.documentId, id));
      return { ok: false, reason: "unchanged" } as const;
    }
    const [{ next }] = (await tx
      .select({ next: nextVersionSql(id) })
      .from(legalDocuments)
      .where(eq(legalDocuments.id, id))) as [{ next: number }];
    const version = Number(next);
    const now = new Date();
    await tx.insert(legalDocumentVersions).values({ documentId: id, version, name: doc.name, content, publishedAt: now, publishedBy: adminId });
    await tx.update(legalDocuments).set({ content, version, published: true, updatedAt: now }).where(eq(legalDocuments.id, id));
    await tx.delete(legalDocumentDrafts).where(eq(legalDocumentDrafts.documentId, id));
    return { ok: true, version } as const;
  });
}

/** Drops the draft; the published text stays. False when there was none. */
export async function discardDocumentDraft(id: number): Promise<boolean> {
  const deleted = await db().delete(legalDocumentDrafts).where(eq(legalDocumentDrafts.documentId, id)).returning({ id: legalDocumentDrafts.documentId });
  return deleted.length > 0;
}

/**
 * Takes a published document off the public pages and out of the gate (its versions and signatures stay).
 * Publishing again makes a new version. False when it was not published.
 */
export async function withdrawDocument(id: number): Promise<boolean> {
  return db().transaction(async (tx) => {
    const updated = await tx
      .update(legalDocuments)
      .set({ published: false, updatedAt: new Date() })
      .where(and(eq(legalDocuments.id, id), eq(legalDocuments.published, true)))
      .returning({ id: legalDocuments.id });
    if (!updated.length) return false;
    // The withdrawn text becomes the draft (unless one is being edited), so it can be published again as is.
    await tx.execute(sql`insert into ${legalDocumentDrafts} (document_id, content)
      select id, content from ${legalDocuments} where id = ${id}
      on conflict (document_id) do nothing`);
    return true;
  });
}

/** Every document's id and name, for the signatures filter. */
export async function documentOptions(): Promise<Array<{ id: number; name: string }>> {
  return db().select({ id: legalDocuments.id, name: legalDocuments.name }).from(legalDocuments).orderBy(asc(legalDocuments.name), asc(legalDocuments.id));
}

/**
 * Records the version in force of every published document that has no version row yet (documents inserted
 * directly, as the demo seed does), so their text is on record for later diffs. Idempotent.
 */
export async function recordVersionsInForce(tx: Db): Promise<void> {
  await tx.execute(sql`insert into ${legalDocumentVersions} (document_id, version, name, content, published_at)
    select d.id, d.version, d.name, d.content, d.updated_at from ${legalDocuments} d where d.published and d.version > 0
    on conflict (document_id, version) do nothing`);
}
