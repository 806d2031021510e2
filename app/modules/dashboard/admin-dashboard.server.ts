import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { profiles, users } from "~/db/schema";

/** GET /api/admin/dashboard/system-profiles-summary: who is on the platform. One query. */
export interface SystemProfilesSummary {
  members: number;
  admins: number;
  verified: number;
  unverified: number;
  pending_activation: number;
  suspended: number;
  by_role: Array<{ role_id: number; count: number }>;
  signups_by_month: Array<{ month: string; count: number }>;
  artists: number;
  provider_profiles: number;
  /** Profiles of any type waiting for an administrator's decision. */
  profiles_pending_approval: number;
}

export async function systemProfilesSummary(now = new Date()): Promise<SystemProfilesSummary> {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
  const [row] = await db()
    .select({
      members: sql<number>`count(*) filter (where ${users.acctType} = 1)::int`,
      admins: sql<number>`count(*) filter (where ${users.acctType} = 2)::int`,
      verified: sql<number>`count(*) filter (where ${users.emailVerifiedAt} is not null)::int`,
      unverified: sql<number>`count(*) filter (where ${users.emailVerifiedAt} is null and ${users.activatedAt} is not null)::int`,
      pendingActivation: sql<number>`count(*) filter (where ${users.activatedAt} is null)::int`,
      suspended: sql<number>`count(*) filter (where ${users.suspendedAt} is not null)::int`,
      byRole: sql<Record<string, number> | null>`(select json_object_agg(r.role_id, r.n) from
        (select ${users.roleId} as role_id, count(*)::int as n from ${users} group by ${users.roleId}) r)`,
      byMonth: sql<Record<string, number> | null>`(select json_object_agg(m.month, m.n) from
        (select to_char(date_trunc('month', ${users.createdAt} at time zone 'UTC'), 'YYYY-MM') as month, count(*)::int as n
         from ${users} where ${users.createdAt} >= ${start.toISOString()}::timestamptz group by 1) m)`,
      profileCounts: sql<{ artists: number; providers: number; pending: number } | null>`(select json_build_object(
          'artists', count(*) filter (where ${profiles.type} = 'artist'),
          'providers', count(*) filter (where ${profiles.type} <> 'artist'),
          'pending', count(*) filter (where ${profiles.status} = 'pending_approval')) from ${profiles})`,
    })
    .from(users);
  const byRole = row?.byRole ?? {};
  const byMonth = row?.byMonth ?? {};
  const months = Array.from({ length: 12 }, (_, i) => {
    const d = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + i, 1));
    return d.toISOString().slice(0, 7);
  });
  return {
    members: row?.members ?? 0,
    admins: row?.admins ?? 0,
    verified: row?.verified ?? 0,
    unverified: row?.unverified ?? 0,
    pending_activation: row?.pendingActivation ?? 0,
    suspended: row?.suspended ?? 0,
    by_role: [1, 2, 3, 4, 5].map((role_id) => ({ role_id, count: byRole[String(role_id)] ?? 0 })),
    signups_by_month: months.map((month) => ({ month, count: byMonth[month] ?? 0 })),
    artists: row?.profileCounts?.artists ?? 0,
    provider_profiles: row?.profileCounts?.providers ?? 0,
    profiles_pending_approval: row?.profileCounts?.pending ?? 0,
  };
}

/**
 * GET /api/admin/dashboard/system-financial-summary. Every figure will be derived from the ledger,
 * which arrives with the finance issues; until then no money has moved and every total is zero.
 */
export interface SystemFinancialSummary {
  currency: "USD";
  income_cents: number;
  paid_out_cents: number;
  pending_payouts_cents: number;
  members_with_balance: number;
}

export async function systemFinancialSummary(): Promise<SystemFinancialSummary> {
  return { currency: "USD", income_cents: 0, paid_out_cents: 0, pending_payouts_cents: 0, members_with_balance: 0 };
}
