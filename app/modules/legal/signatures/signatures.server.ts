import { and, count, desc, eq, lt, or, sql, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { escapeLike, pageCountFor } from "~/db/list-queries";
import { legalDocuments, signatures, users, userSearchText } from "~/db/schema";

/**
 * Who agreed to which version of which document, when, from where: the administrators' list and
 * its CSV export (same filters), and a member's own agreements on their Account page.
 */

export const SIGNATURES_PAGE_SIZE = 25;

export interface SignatureFilters {
  /** A document id, or null for all. */
  document: number | null;
  /** A version number, or null for all. */
  version: number | null;
  /** Part of the member's name or email. */
  member: string;
}

export interface SignatureRow {
  id: number;
  userId: number;
  memberName: string;
  memberEmail: string;
  documentId: number;
  documentName: string;
  version: number;
  /** Whether this is the document's version in force. */
  current: boolean;
  signedAt: string;
  ip: string | null;
  userAgent: string | null;
}

const positiveInt = (value: string | null, max: number) => (value && /^[1-9][0-9]{0,9}$/.test(value) && Number(value) <= max ? Number(value) : null);

/** The filters from a query string; anything malformed is ignored (the list shows unfiltered). */
/** `view`: the signatures ("signed"), or who still has to agree to the current versions ("outstanding"). */
export function parseSignatureFilters(params: URLSearchParams): SignatureFilters & { page: number; view: "signed" | "outstanding" } {
  return {
    document: positiveInt(params.get("document"), 2_147_483_647),
    version: positiveInt(params.get("version"), 2_147_483_647),
    member: (params.get("member") ?? "").trim().slice(0, 100),
    page: positiveInt(params.get("page"), 100_000) ?? 1,
    view: params.get("view") === "outstanding" ? "outstanding" : "signed",
  };
}

function conditions(filters: SignatureFilters): SQL | undefined {
  const where: Array<SQL | undefined> = [];
  if (filters.document !== null) where.push(eq(signatures.documentId, filters.document));
  if (filters.version !== null) where.push(eq(signatures.documentVersion, filters.version));
  // The admin member search's expression (users_search_trgm_idx).
  if (filters.member) where.push(sql`${userSearchText(users)} like lower(${`%${escapeLike(filters.member)}%`})`);
  return where.length ? and(...where) : undefined;
}

const rowColumns = {
  id: signatures.id,
  userId: signatures.userId,
  name: users.name,
  lastName: users.lastName,
  memberEmail: users.email,
  documentId: signatures.documentId,
  documentName: legalDocuments.name,
  version: signatures.documentVersion,
  current: sql<boolean>`(${legalDocuments.published} and ${legalDocuments.version} = ${signatures.documentVersion})`,
  signedAt: signatures.signedAt,
  ip: signatures.ip,
  userAgent: signatures.userAgent,
};

function toRow(r: Awaited<ReturnType<typeof rowsQuery>>[number]): SignatureRow {
  return {
    id: r.id,
    userId: r.userId,
    memberName: `${r.name} ${r.lastName}`.trim(),
    memberEmail: r.memberEmail,
    documentId: r.documentId,
    documentName: r.documentName,
    version: r.version,
    current: Boolean(r.current),
    signedAt: r.signedAt.toISOString(),
    ip: r.ip,
    userAgent: r.userAgent,
  };
}

function rowsQuery(where: SQL | undefined, limit: number, offset = 0) {
  return db()
    .select(rowColumns)
    .from(signatures)
    .innerJoin(users, eq(users.id, signatures.userId))
    .innerJoin(legalDocuments, eq(legalDocuments.id, signatures.documentId))
    .where(where)
    .orderBy(desc(signatures.signedAt), desc(signatures.id))
    .limit(limit)
    .offset(offset);
}

/** One page of signatures, newest first, and the total matching the filters. Two statements. */
export async function listSignatures(query: SignatureFilters & { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? SIGNATURES_PAGE_SIZE;
  const page = Math.max(1, Math.floor(query.page));
  const where = conditions(query);
  const [rows, [totals]] = await Promise.all([
    rowsQuery(where, pageSize, (page - 1) * pageSize),
    db().select({ total: count() }).from(signatures).innerJoin(users, eq(users.id, signatures.userId)).where(where),
  ]);
  const total = totals?.total ?? 0;
  return { signatures: rows.map(toRow), total, page, pageSize, pageCount: pageCountFor(total, pageSize) };
}

/**
 * Every signature matching the filters, newest first, in keyset batches (signed_at, id): an export of any
 * size holds one batch in memory and no statement stays open between batches.
 */
export async function* iterateSignatures(filters: SignatureFilters, batch = 1000): AsyncGenerator<SignatureRow> {
  let after: { signedAt: Date; id: number } | null = null;
  for (;;) {
    const cursor: SQL | undefined = after
      ? or(lt(signatures.signedAt, after.signedAt), and(eq(signatures.signedAt, after.signedAt), lt(signatures.id, after.id)))
      : undefined;
    const rows = await rowsQuery(and(conditions(filters), cursor), batch);
    for (const row of rows) yield toRow(row);
    if (rows.length < batch) return;
    const last = rows[rows.length - 1]!;
    after = { signedAt: last.signedAt, id: last.id };
  }
}

/* ------------------------------------------------------------------ who still has to agree */

/**
 * An account that has not agreed to the version in force of a published, required document: the login gate
 * will stop it (legal.server.ts pendingDocumentsFor). Accounts that cannot sign in (suspended, or never
 * activated) are left out: they are not waiting on anyone.
 */
export interface OutstandingRow {
  userId: number;
  memberName: string;
  memberEmail: string;
  documentId: number;
  documentName: string;
  currentVersion: number;
  /** The newest version they agreed to, or null when they never agreed to this document. */
  lastAgreedVersion: number | null;
}

function outstandingWhere(filters: Pick<SignatureFilters, "document" | "member">, after?: { documentId: number; userId: number }): SQL {
  const parts: SQL[] = [
    sql`d.published and d.required and u.suspended_at is null and u.activated_at is not null`,
    sql`not exists (select 1 from ${signatures} s where s.user_id = u.id and s.document_id = d.id and s.document_version = d.version)`,
  ];
  if (filters.document !== null) parts.push(sql`d.id = ${filters.document}`);
  // userSearchText's expression (users_search_trgm_idx), on the alias.
  if (filters.member) parts.push(sql`lower(u.name || ' ' || u.last_name || ' ' || u.email) like lower(${`%${escapeLike(filters.member)}%`})`);
  if (after) parts.push(sql`(d.id, u.id) > (${after.documentId}, ${after.userId})`);
  return sql.join(parts, sql` and `);
}

type OutstandingRaw = {
  user_id: number;
  name: string;
  last_name: string;
  email: string;
  document_id: number;
  document_name: string;
  version: number;
  last_agreed: number | null;
};

function outstandingRows(where: SQL, limit: number, offset = 0) {
  return db().execute(sql`
    select u.id as user_id, u.name, u.last_name, u.email, d.id as document_id, d.name as document_name, d.version,
      (select max(s.document_version) from ${signatures} s where s.user_id = u.id and s.document_id = d.id) as last_agreed
    from ${legalDocuments} d cross join ${users} u
    where ${where}
    order by d.id, u.id
    limit ${limit} offset ${offset}`);
}

const toOutstanding = (r: OutstandingRaw): OutstandingRow => ({
  userId: r.user_id,
  memberName: `${r.name} ${r.last_name}`.trim(),
  memberEmail: r.email,
  documentId: r.document_id,
  documentName: r.document_name,
  currentVersion: r.version,
  lastAgreedVersion: r.last_agreed,
});

/** One page of the accounts still to agree (by document, then account), and how many there are. Two statements. */
export async function listOutstanding(query: Pick<SignatureFilters, "document" | "member"> & { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? SIGNATURES_PAGE_SIZE;
  const page = Math.max(1, Math.floor(query.page));
  const where = outstandingWhere(query);
  const [rows, totals] = await Promise.all([
    outstandingRows(where, pageSize, (page - 1) * pageSize),
    db().execute(sql`select count(*)::int as total from ${legalDocuments} d cross join ${users} u where ${where}`),
  ]);
  const total = (totals as unknown as { rows: Array<{ total: number }> }).rows[0]?.total ?? 0;
  return {
    outstanding: (rows as unknown as { rows: OutstandingRaw[] }).rows.map(toOutstanding),
    total,
    page,
    pageSize,
    pageCount: pageCountFor(total, pageSize),
  };
}

/** Every account still to agree under the filters, in keyset batches (document, account), for the CSV. */
export async function* iterateOutstanding(filters: Pick<SignatureFilters, "document" | "member">, batch = 1000): AsyncGenerator<OutstandingRow> {
  let after: { documentId: number; userId: number } | undefined;
  for (;;) {
    const rows = (await outstandingRows(outstandingWhere(filters, after), batch)) as unknown as { rows: OutstandingRaw[] };
    for (const row of rows.rows) yield toOutstanding(row);
    if (rows.rows.length < batch) return;
    const last = rows.rows[rows.rows.length - 1]!;
    after = { documentId: last.document_id, userId: last.user_id };
  }
}

export interface OwnSignatureRow {
  id: number;
  documentName: string;
  documentSlug: string;
  version: number;
  current: boolean;
  published: boolean;
  signedAt: string;
}

/** A member's own agreements, newest first (their Account page). At most `limit` rows. */
export async function signaturesOfMember(userId: number, limit = 50): Promise<OwnSignatureRow[]> {
  const rows = await db()
    .select({
      id: signatures.id,
      documentName: legalDocuments.name,
      documentSlug: legalDocuments.slug,
      version: signatures.documentVersion,
      published: legalDocuments.published,
      docVersion: legalDocuments.version,
      signedAt: signatures.signedAt,
    })
    .from(signatures)
    .innerJoin(legalDocuments, eq(legalDocuments.id, signatures.documentId))
    .where(eq(signatures.userId, userId))
    .orderBy(desc(signatures.signedAt), desc(signatures.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    documentName: r.documentName,
    documentSlug: r.documentSlug,
    version: r.version,
    published: r.published,
    current: r.published && r.docVersion === r.version,
    signedAt: r.signedAt.toISOString(),
  }));
}
