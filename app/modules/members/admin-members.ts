import { z } from "zod";
import { emailField } from "~/modules/accounts/schemas";
import { ACCT_TYPE, hasAdminAccess, ROLES } from "~/modules/accounts/roles";

/**
 * Admin member management, shared by the pages and the server: the status vocabulary, the list's
 * URL query, and the form schemas (one schema for client and server, through Conform).
 */

// ---------------------------------------------------------------- status

/** Exclusive, in this order of precedence: suspended, pending activation, unverified, active. Keys are status-tag keys. */
export const MEMBER_STATUSES = ["active", "unverified", "account_pending", "suspended"] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export const MEMBER_STATUS_LABELS: Record<MemberStatus, string> = {
  active: "Active",
  unverified: "Unverified",
  account_pending: "Pending activation",
  suspended: "Suspended",
};

type StatusDates = { suspendedAt: Date | string | null; activatedAt: Date | string | null; emailVerifiedAt: Date | string | null };

export function memberStatus(user: StatusDates): MemberStatus {
  if (user.suspendedAt) return "suspended";
  if (!user.activatedAt) return "account_pending";
  if (!user.emailVerifiedAt) return "unverified";
  return "active";
}

export const ACCT_TYPE_LABELS: Record<number, string> = { [ACCT_TYPE.member]: "Member", [ACCT_TYPE.admin]: "Admin" };
export const acctTypeLabel = (acctType: number) => ACCT_TYPE_LABELS[acctType] ?? `Type ${acctType}`;

// ---------------------------------------------------------------- permissions (the server enforces them; the page uses them to explain)

type Account = { id: number; acctType: number; roleId: number };
const SUPER_ADMIN = 1;
const DEFAULT_ROLE = 5;

export const PERMISSION_MESSAGES = {
  needsAdminAccess: "Only a Super admin or an Admin can change account types, roles or suspensions.",
  needsAdminAccessToCreate: "Only a Super admin or an Admin can create admin accounts or give a role other than User.",
  superAdminOnlyGrant: "Only a Super admin can grant the Super admin role.",
  superAdminOnlyTarget: "Only a Super admin can change or suspend another Super admin.",
  noSelfDemotion: "You cannot demote yourself: ask another administrator to change your access.",
  noSelfSuspension: "You cannot suspend your own account.",
} as const;

/** Why `actor` may not set `target`'s account type and role to `change`; null when allowed. */
export function accessChangeRefusal(actor: Account, target: Account, change: { acctType: number; roleId: number }): string | null {
  if (!hasAdminAccess(actor)) return PERMISSION_MESSAGES.needsAdminAccess;
  if (actor.id === target.id) {
    const demoted = change.acctType !== ACCT_TYPE.admin || change.roleId > target.roleId;
    if (demoted) return PERMISSION_MESSAGES.noSelfDemotion;
  }
  if (target.roleId === SUPER_ADMIN && actor.roleId !== SUPER_ADMIN) return PERMISSION_MESSAGES.superAdminOnlyTarget;
  if (change.roleId === SUPER_ADMIN && target.roleId !== SUPER_ADMIN && actor.roleId !== SUPER_ADMIN) {
    return PERMISSION_MESSAGES.superAdminOnlyGrant;
  }
  return null;
}

/** Why `actor` may not suspend `target`; null when allowed. */
export function suspensionRefusal(actor: Account, target: Account): string | null {
  if (!hasAdminAccess(actor)) return PERMISSION_MESSAGES.needsAdminAccess;
  if (actor.id === target.id) return PERMISSION_MESSAGES.noSelfSuspension;
  if (target.roleId === SUPER_ADMIN && actor.roleId !== SUPER_ADMIN) return PERMISSION_MESSAGES.superAdminOnlyTarget;
  return null;
}

/** Why `actor` may not lift `target`'s suspension; null when allowed. */
export function reactivationRefusal(actor: Account): string | null {
  return hasAdminAccess(actor) ? null : PERMISSION_MESSAGES.needsAdminAccess;
}

/** Why `actor` may not create an account with this access; null when allowed. Any admin may create plain members. */
export function creationRefusal(actor: Account, access: { acctType: number; roleId: number }): string | null {
  const elevated = access.acctType !== ACCT_TYPE.member || access.roleId !== DEFAULT_ROLE;
  if (elevated && !hasAdminAccess(actor)) return PERMISSION_MESSAGES.needsAdminAccessToCreate;
  if (access.roleId === SUPER_ADMIN && actor.roleId !== SUPER_ADMIN) return PERMISSION_MESSAGES.superAdminOnlyGrant;
  return null;
}

// ---------------------------------------------------------------- list query (?q=&type=&status=&page=)

export const MEMBER_TYPE_FILTERS = { member: ACCT_TYPE.member, admin: ACCT_TYPE.admin } as const;

/** Anything malformed in the URL falls back to "no filter" / page 1 rather than an error page. */
export const MemberListQuerySchema = z.object({
  q: z.string().trim().max(100).catch(""),
  type: z.enum(["member", "admin"]).optional().catch(undefined),
  status: z.enum(MEMBER_STATUSES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});
export type MemberListQuery = z.infer<typeof MemberListQuerySchema>;

export function parseMemberListQuery(params: URLSearchParams): MemberListQuery {
  const raw = { q: params.get("q") ?? "", type: params.get("type") || undefined, status: params.get("status") || undefined, page: params.get("page") ?? 1 };
  return MemberListQuerySchema.parse(raw);
}

// ---------------------------------------------------------------- forms

const nameField = (label: string) =>
  z
    .string({ error: `Enter the ${label}.` })
    .trim()
    .min(1, `Enter the ${label}.`)
    .max(80, `The ${label} can be at most 80 characters.`);

export const acctTypeField = z
  .number({ error: "Choose an account type." })
  .int()
  .refine((v) => v === ACCT_TYPE.member || v === ACCT_TYPE.admin, "Choose Member or Admin.");

export const roleIdField = z
  .number({ error: "Choose a role." })
  .int()
  .refine((v) => ROLES.some((r) => r.id === v), "Choose one of the listed roles.");

export const CreateMemberSchema = z.object({
  name: nameField("first name"),
  lastName: nameField("last name"),
  email: emailField,
  acctType: acctTypeField,
  roleId: roleIdField,
});

export const MEMBER_INTENTS = ["change-access", "suspend", "reactivate", "resend-verification", "resend-activation"] as const;

export const MemberActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("change-access"), acctType: acctTypeField, roleId: roleIdField }),
  z.object({ intent: z.literal("suspend") }),
  z.object({ intent: z.literal("reactivate") }),
  z.object({ intent: z.literal("resend-verification") }),
  z.object({ intent: z.literal("resend-activation") }),
]);
export type MemberActionInput = z.infer<typeof MemberActionSchema>;
