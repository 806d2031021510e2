/** Account types and role levels. Shared by server and UI. */
export const ACCT_TYPE = { member: 1, admin: 2 } as const;

export const ROLES = [
  { id: 1, name: "Super admin" },
  { id: 2, name: "Admin" },
  { id: 3, name: "Manager" },
  { id: 4, name: "Collaborator" },
  { id: 5, name: "User" },
] as const;

type WithRole = { acctType?: number; acct_type?: number; roleId?: number; role_id?: number };
const acctTypeOf = (u: WithRole) => u.acctType ?? u.acct_type ?? 1;
const roleOf = (u: WithRole) => u.roleId ?? u.role_id ?? 5;

export const isAdminAccount = (u: WithRole) => acctTypeOf(u) === ACCT_TYPE.admin;
/** Each level includes the higher ones: admin access means role_id below 3, and so on. */
export const hasAdminAccess = (u: WithRole) => roleOf(u) < 3;

export function roleName(roleId: number): string {
  return ROLES.find((r) => r.id === roleId)?.name ?? `Role ${roleId}`;
}
