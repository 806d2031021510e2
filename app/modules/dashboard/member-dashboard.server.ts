import { eq, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { legalDocuments, signatures, users } from "~/db/schema";
import { microsToCentsFloor } from "~/modules/ledger/money";
import { loadDashboardProfiles, type DashboardProfiles } from "~/modules/members/member-area.server";

/** The member dashboard's figures (GET /api/members/{id}/dashboard/stats). One query. */
export interface MemberDashboardStats {
  member_since: string;
  email_verified: boolean;
  has_avatar: boolean;
  documents_agreed: number;
  documents_required: number;
  artists: number;
  provider_profiles: number;
  projects: number;
  work_requests: number;
  /** The available balance (MONEY.md: earnings less reserved, rounded down to whole cents), as the income report's. */
  balance_cents: number;
  currency: "USD";
  /** Income per month (statement lines' sale period; the entry's month otherwise), the latest 12 months with income, in cents rounded down. */
  income_by_month: Array<{ month: string; cents: number }>;
}

export async function memberDashboardStats(memberId: number, profiles?: DashboardProfiles): Promise<MemberDashboardStats | null> {
  const [row] = await db()
    .select({
      createdAt: users.createdAt,
      emailVerifiedAt: users.emailVerifiedAt,
      avatarImg: users.avatarImg,
      required: sql<number>`(select count(*)::int from ${legalDocuments} d where d.published and d.required)`,
      agreed: sql<number>`(select count(*)::int from ${legalDocuments} d where d.published and d.required and exists (
        select 1 from ${signatures} s where s.user_id = ${memberId} and s.document_id = d.id and s.document_version = d.version))`,
      // The same figures as the income report (app/modules/ledger/reports/income.server.ts), in this one statement.
      // A payout request moves its amount out of earnings into payouts_reserved (decision 018), so the earnings
      // balance is already "earnings less reserved" (and less paid).
      balanceMicros: sql<string>`(select coalesce(sum(ps.amount_micros), 0)::text
        from ledger_accounts a join posting_rollups ps on ps.account_id = a.id and ps.dim = ''
        where a.user_id = ${memberId} and a.currency = 'USD' and a.kind = 'earnings')`,
      // posting_rollups.month is the sale month, else the entry's month, as on the income page.
      incomeByMonth: sql<Array<{ month: string; amount: string }> | null>`(select json_agg(json_build_object('month', x.month, 'amount', x.amount::text) order by x.month)
        from (select to_char(ps.month, 'YYYY-MM') as month, sum(ps.amount_micros) as amount
            from ledger_accounts a
            join posting_rollups ps on ps.account_id = a.id and ps.dim = '' and ps.source <> ''
            where a.user_id = ${memberId} and a.kind = 'earnings' and a.currency = 'USD'
            group by ps.month order by ps.month desc limit 12) x)`,
    })
    .from(users)
    .where(eq(users.id, memberId));
  if (!row) return null;
  const p = profiles ?? (await loadDashboardProfiles(memberId));
  return {
    member_since: row.createdAt.toISOString(),
    email_verified: Boolean(row.emailVerifiedAt),
    has_avatar: Boolean(row.avatarImg),
    documents_agreed: row.agreed,
    documents_required: row.required,
    artists: p.artists.length,
    provider_profiles: [p.musician, p.audio_engineer, p.studio, p.music_producer].filter(Boolean).length,
    // Projects and work requests arrive with their issues; nothing of them exists before.
    projects: 0,
    work_requests: 0,
    balance_cents: Number(microsToCentsFloor(BigInt(row.balanceMicros ?? "0"))),
    currency: "USD",
    income_by_month: (row.incomeByMonth ?? []).map((m) => ({ month: m.month, cents: Number(microsToCentsFloor(BigInt(m.amount))) })),
  };
}

/** GET /api/members/{id}/dashboard/projects and work-requests: `{ data }` lists, empty until those features land. */
export async function memberDashboardProjects(_memberId: number): Promise<{ data: unknown[] }> {
  return { data: [] };
}

export async function memberDashboardWorkRequests(_memberId: number): Promise<{ data: unknown[] }> {
  return { data: [] };
}

