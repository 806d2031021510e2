import { and, eq, inArray, max } from "drizzle-orm";
import { db } from "~/db/client.server";
import { legalDocuments, legalDocumentVersions, signatures } from "~/db/schema";
import { pendingDocumentsFor, type DocumentSummary } from "../legal.server";
import { documentChanges, type ChangePart } from "./document-changes.server";

export interface PendingDocument extends DocumentSummary {
  /**
   * For a document this user agreed to before (an older version): that version, and the word diff from its
   * text to the text in force (null when the old text is not on record, e.g. rows written before versions
   * were kept, or when only the markup changed). Null for a document they never agreed to.
   */
  changes: { sinceVersion: number; parts: ChangePart[] | null } | null;
}

/**
 * The agreement page's list: the required documents whose version in force this user
 * has not signed, each with what changed since the version they last signed. Two statements.
 */
export async function pendingDocumentsWithChanges(userId: number): Promise<PendingDocument[]> {
  const pending = await pendingDocumentsFor(userId);
  if (!pending.length) return [];
  const ids = pending.map((d) => d.id);
  const signed = db()
    .select({ documentId: signatures.documentId, version: max(signatures.documentVersion).as("signed_version") })
    .from(signatures)
    .where(and(eq(signatures.userId, userId), inArray(signatures.documentId, ids)))
    .groupBy(signatures.documentId)
    .as("signed");
  const rows = await db()
    .select({ id: legalDocuments.id, current: legalDocuments.content, signedVersion: signed.version, signedContent: legalDocumentVersions.content })
    .from(legalDocuments)
    .innerJoin(signed, eq(signed.documentId, legalDocuments.id))
    .leftJoin(legalDocumentVersions, and(eq(legalDocumentVersions.documentId, legalDocuments.id), eq(legalDocumentVersions.version, signed.version)))
    .where(inArray(legalDocuments.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return pending.map((doc) => {
    const row = byId.get(doc.id);
    if (!row || row.signedVersion === null) return { ...doc, changes: null };
    return {
      ...doc,
      changes: { sinceVersion: Number(row.signedVersion), parts: row.signedContent === null ? null : documentChanges(row.signedContent, row.current) },
    };
  });
}
