import { and, asc, eq, sql, type SQLWrapper } from "drizzle-orm";
import sanitizeHtml from "sanitize-html";
import { db } from "~/db/client.server";
import { legalDocuments, legalDocumentVersions, signatures, type LegalDocument } from "~/db/schema";

export type DocumentSummary = Pick<LegalDocument, "id" | "name" | "slug" | "version" | "required">;

const summaryColumns = {
  id: legalDocuments.id,
  name: legalDocuments.name,
  slug: legalDocuments.slug,
  version: legalDocuments.version,
  required: legalDocuments.required,
};

/** Documents are HTML written by administrators: only a safe subset of tags reaches a browser. */
export function sanitizeDocumentHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, "h1", "h2", "h3"],
    allowedSchemes: ["http", "https", "mailto"],
  });
}

export async function listPublishedDocuments(): Promise<DocumentSummary[]> {
  return db().select(summaryColumns).from(legalDocuments).where(eq(legalDocuments.published, true)).orderBy(asc(legalDocuments.name));
}

/**
 * A published document by slug, its text sanitised. `updatedAt` is when its version in force was published
 * (a draft being edited, or a change of settings, does not make the public text newer).
 */
export async function findPublishedDocument(slug: string): Promise<LegalDocument | undefined> {
  const [row] = await db()
    .select({ doc: legalDocuments, publishedAt: legalDocumentVersions.publishedAt })
    .from(legalDocuments)
    .leftJoin(legalDocumentVersions, and(eq(legalDocumentVersions.documentId, legalDocuments.id), eq(legalDocumentVersions.version, legalDocuments.version)))
    .where(and(eq(legalDocuments.slug, slug), eq(legalDocuments.published, true)))
    .limit(1);
  if (!row) return undefined;
  return { ...row.doc, content: sanitizeDocumentHtml(row.doc.content), updatedAt: row.publishedAt ?? row.doc.updatedAt };
}

/** Required, published documents whose current version the user has not signed. One query. */
export async function pendingDocumentsFor(userId: number): Promise<DocumentSummary[]> {
  return db()
    .select(summaryColumns)
    .from(legalDocuments)
    .where(
      and(
        eq(legalDocuments.published, true),
        eq(legalDocuments.required, true),
        sql`not exists (select 1 from ${signatures} s where s.user_id = ${userId}
              and s.document_id = ${legalDocuments.id} and s.document_version = ${legalDocuments.version})`,
      ),
    )
    .orderBy(asc(legalDocuments.name));
}

/**
 * The same rule as pendingDocumentsFor, as a boolean column for a query that already reads the user
 * (the request's session lookup), so the agreement gate costs no statement of its own.
 */
export function agreedToAllDocumentsSql(userId: SQLWrapper) {
  return sql<boolean>`not exists (select 1 from ${legalDocuments} d where d.published and d.required
    and not exists (select 1 from ${signatures} s where s.user_id = ${userId}
      and s.document_id = d.id and s.document_version = d.version))`;
}

export async function hasAgreedToAllDocuments(userId: number): Promise<boolean> {
  return (await pendingDocumentsFor(userId)).length === 0;
}

/**
 * Records the user's agreement to the current version of the given documents. Only documents that
 * are pending for this user count; the caller learns which required ones are still left.
 */
export async function signDocuments(input: {
  userId: number;
  documentIds: number[];
  ip: string;
  userAgent: string;
}): Promise<{ remaining: DocumentSummary[] }> {
  const pending = await pendingDocumentsFor(input.userId);
  const chosen = pending.filter((doc) => input.documentIds.includes(doc.id));
  if (chosen.length) {
    await db()
      .insert(signatures)
      .values(
        chosen.map((doc) => ({
          userId: input.userId,
          documentId: doc.id,
          documentVersion: doc.version,
          ip: input.ip,
          userAgent: input.userAgent.slice(0, 500),
        })),
      )
      .onConflictDoNothing();
  }
  return { remaining: pending.filter((doc) => !input.documentIds.includes(doc.id)) };
}
