import { and, asc, count, desc, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { escapeLike, pageCountFor } from "~/db/list-queries";
import { legalDocuments, signatures, users, userSearchText, type User } from "~/db/schema";
import { createPendingAccount, sendActivationEmail, sendVerificationEmail } from "~/modules/accounts/accounts.server";
import { fullName } from "~/modules/accounts/current-user.server";
import { revokeUserSessions } from "~/modules/accounts/session.server";
import {
  accessChangeRefusal,
  creationRefusal,
  MEMBER_TYPE_FILTERS,
  memberStatus,
  reactivationRefusal,
  suspensionRefusal,
  type MemberListQuery,
  type MemberStatus,
} from "./admin-members";

/**
 * Admin member management: the member list, one member's details, and what an
 * administrator may do to an account. Every rule is checked here, whatever the caller shows.
 */

export const MEMBERS_PAGE_SIZE = 25;

// ---------------------------------------------------------------- list

export interface MemberListRow {
  id: number;
  name: string;
  lastName: string;
  fullName: string;
  email: string;
  acctType: number;
  roleId: number;
  status: MemberStatus;
  createdAt: string;
}

export interface MemberList {
  members: MemberListRow[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

const STATUS_CONDITIONS: Record<MemberStatus, () => SQL | undefined> = {
  suspended: () => isNotNull(users.suspendedAt),
  account_pending: () => and(isNull(users.suspendedAt), isNull(users.activatedAt)),
  unverified: () => and(isNull(users.suspendedAt), isNotNull(users.activatedAt), isNull(users.emailVerifiedAt)),
  active: () => and(isNull(users.suspendedAt), isNotNull(users.activatedAt), isNotNull(users.emailVerifiedAt)),
};

export function listConditions(query: Partial<MemberListQuery>): SQL | undefined {
  const conditions: Array<SQL | undefined> = [];
  const q = query.q?.trim();
  // Served by users_search_trgm_idx (a trigram index on exactly this expression).
  if (q) conditions.push(sql`${userSearchText(users)} like lower(${`%${escapeLike(q)}%`})`);
  if (query.type) conditions.push(eq(users.acctType, MEMBER_TYPE_FILTERS[query.type]));
  if (query.status) conditions.push(STATUS_CONDITIONS[query.status]());
  return conditions.length ? and(...conditions) : undefined;
}

/**
 * One page of members, newest first (users_created_at_idx), and the total matching the filters.
 * Always two queries, run together, whatever the page size.
 */
export async function listMembers(query: Partial<MemberListQuery> & { pageSize?: number }): Promise<MemberList> {
  const pageSize = query.pageSize ?? MEMBERS_PAGE_SIZE;
  const page = Math.max(1, Math.floor(query.page ?? 1));
  const where = listConditions(query);
  const [rows, totals] = await Promise.all([
    db()
      .select({
        id: users.id,
        name: users.name,
        lastName: users.lastName,
        email: users.email,
        acctType: users.acctType,
        roleId: users.roleId,
        emailVerifiedAt: users.emailVerifiedAt,
        activatedAt: users.activatedAt,
        suspendedAt: users.suspendedAt,
        createdAt: users.createdAt,
      })
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db().select({ total: count() }).from(users).where(where),
  ]);
  const total = Number(totals[0]?.total ?? 0);
  return {
    members: rows.map((row) => ({
      id: row.id,
      name: row.name,
      lastName: row.lastName,
      fullName: fullName(row),
      email: row.email,
      acctType: row.acctType,
      roleId: row.roleId,
      status: memberStatus(row),
      createdAt: row.createdAt.toISOString(),
    })),
    total,
    page,
    pageSize,
    pageCount: pageCountFor(total, pageSize),
  };
}

// ---------------------------------------------------------------- details

export interface MemberDocument {
  id: number;
  name: string;
  slug: string;
  version: number;
  required: boolean;
  /** When the member agreed to the current version; null when they have not. */
  signedAt: string | null;
}

/** A list row plus what the member page shows besides. */
export interface MemberDetail extends MemberListRow {
  emailVerifiedAt: string | null;
  activatedAt: string | null;
  suspendedAt: string | null;
  updatedAt: string;
  /** Published documents, with the member's agreement to their current version. */
  documents: MemberDocument[];
  /** The same rule as pendingDocumentsFor: every required, published document signed at its current version. */
  agreedToAllDocuments: boolean;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** One member and their legal agreements (two queries); null when there is no such member. */
export async function getMemberDetail(memberId: number): Promise<MemberDetail | null> {
  const [[member], documents] = await Promise.all([
    db().select().from(users).where(eq(users.id, memberId)).limit(1),
    db()
      .select({
        id: legalDocuments.id,
        name: legalDocuments.name,
        slug: legalDocuments.slug,
        version: legalDocuments.version,
        required: legalDocuments.required,
        signedAt: signatures.signedAt,
      })
      .from(legalDocuments)
      .leftJoin(
        signatures,
        and(eq(signatures.documentId, legalDocuments.id), eq(signatures.userId, memberId), eq(signatures.documentVersion, legalDocuments.version)),
      )
      .where(eq(legalDocuments.published, true))
      .orderBy(asc(legalDocuments.name)),
  ]);
  if (!member) return null;
  const docs = documents.map((d) => ({ ...d, signedAt: iso(d.signedAt) }));
  return {
    id: member.id,
    name: member.name,
    lastName: member.lastName,
    fullName: fullName(member),
    email: member.email,
    acctType: member.acctType,
    roleId: member.roleId,
    status: memberStatus(member),
    emailVerifiedAt: iso(member.emailVerifiedAt),
    activatedAt: iso(member.activatedAt),
    suspendedAt: iso(member.suspendedAt),
    createdAt: member.createdAt.toISOString(),
    updatedAt: member.updatedAt.toISOString(),
    documents: docs,
    agreedToAllDocuments: docs.every((d) => !d.required || d.signedAt),
  };
}

// ---------------------------------------------------------------- actions

/** A refused action: the page shows `message` with `status` (403 forbidden, 404 no such member, 409 not applicable). */
export class MemberActionError extends Error {
  constructor(
    readonly status: 403 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

type Actor = Pick<User, "id" | "acctType" | "roleId" | "name" | "lastName">;

function refuse(message: string | null) {
  if (message) throw new MemberActionError(403, message);
}

async function findMember(memberId: number): Promise<User> {
  const [member] = await db().select().from(users).where(eq(users.id, memberId)).limit(1);
  if (!member) throw new MemberActionError(404, "There is no such member.");
  return member;
}

/** Creates a pending account (no password) and emails its activation link, signed by the acting admin. */
export async function createMember(actor: Actor, input: { name: string; lastName: string; email: string; acctType: number; roleId: number }): Promise<User> {
  refuse(creationRefusal(actor, input));
  return createPendingAccount({ ...input, invitedBy: fullName(actor) });
}

/** Sets account type and role. Checked and written in one transaction, against the row as it is now. */
export async function changeMemberAccess(
  actor: Actor,
  memberId: number,
  change: { acctType: number; roleId: number },
): Promise<{ member: User; changed: boolean }> {
  return db().transaction(async (tx) => {
    const [target] = await tx.select().from(users).where(eq(users.id, memberId)).for("update");
    if (!target) throw new MemberActionError(404, "There is no such member.");
    refuse(accessChangeRefusal(actor, target, change));
    if (target.acctType === change.acctType && target.roleId === change.roleId) return { member: target, changed: false };
    const [member] = await tx
      .update(users)
      .set({ acctType: change.acctType, roleId: change.roleId, updatedAt: new Date() })
      .where(eq(users.id, memberId))
      .returning();
    return { member: member!, changed: true };
  });
}

/** Suspends the account and ends every one of its sessions at once (the guards refuse suspended users too). */
export async function suspendMember(actor: Actor, memberId: number): Promise<{ member: User; changed: boolean }> {
  const result = await db().transaction(async (tx) => {
    const [target] = await tx.select().from(users).where(eq(users.id, memberId)).for("update");
    if (!target) throw new MemberActionError(404, "There is no such member.");
    refuse(suspensionRefusal(actor, target));
    if (target.suspendedAt) return { member: target, changed: false };
    const now = new Date();
    const [member] = await tx.update(users).set({ suspendedAt: now, updatedAt: now }).where(eq(users.id, memberId)).returning();
    return { member: member!, changed: true };
  });
  await revokeUserSessions(memberId);
  return result;
}

export async function reactivateMember(actor: Actor, memberId: number): Promise<{ member: User; changed: boolean }> {
  refuse(reactivationRefusal(actor));
  const target = await findMember(memberId);
  if (!target.suspendedAt) return { member: target, changed: false };
  const [member] = await db().update(users).set({ suspendedAt: null, updatedAt: new Date() }).where(eq(users.id, memberId)).returning();
  return { member: member!, changed: true };
}

/** Emails a fresh verification link (retiring the older ones); only while the address is unverified. */
export async function resendVerification(_actor: Actor, memberId: number): Promise<User> {
  const member = await findMember(memberId);
  if (member.emailVerifiedAt) throw new MemberActionError(409, "This email address is already verified.");
  await sendVerificationEmail(member);
  return member;
}

/** Emails a fresh activation link (retiring the older ones); only while the account is not activated. */
export async function resendActivation(actor: Actor, memberId: number): Promise<User> {
  const member = await findMember(memberId);
  if (member.activatedAt) throw new MemberActionError(409, "This account is already activated.");
  await sendActivationEmail(member, fullName(actor));
  return member;
}
