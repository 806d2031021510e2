import { eq, sql, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { legalDocuments, signatures, users, type MarketplaceService, type ProjectStage } from "~/db/schema";
import { microsToCentsFloor } from "~/modules/ledger/money";
import { loadDashboardProfiles, type DashboardProfiles } from "~/modules/members/member-area.server";

/** What counts as open on the dashboard: projects and requests still waiting on someone. */
const OPEN_PROJECT = ["awaiting_funding", "in_progress", "awaiting_approval", "revision_requested"];
const OPEN_WORK_REQUEST = ["pending", "awaiting_approval", "revision_requested"];
/** How many recent projects and work requests the dashboard lists. */
const RECENT = 5;
const inList = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/** The member dashboard's figures (GET /api/members/{id}/dashboard/stats). One query. */
export interface MemberDashboardStats {
  member_since: string;
  email_verified: boolean;
  has_avatar: boolean;
  documents_agreed: number;
  documents_required: number;
  artists: number;
  provider_profiles: number;
  /** Every project where the member is the client or the provider: what the Projects page and the dashboard list. */
  projects: number;
  /** Of those, the open ones (in progress, awaiting approval or in revision). */
  projects_open: number;
  /** Every work request the member sent or received, as the Work Requests page and the dashboard list them. */
  work_requests: number;
  /** Of those, the open ones (pending, awaiting approval or revision requested). */
  work_requests_open: number;
  /** Releases of the member's artist pages that went to review or further (not a draft, not rejected). */
  releases_submitted: number;
  /** The available balance (docs/money.md: earnings less reserved, rounded down to whole cents), as the income report's. */
  balance_cents: number;
  currency: "USD";
  /** Income per month (statement lines' sale period; the entry's month otherwise), the latest 12 months with income, in cents rounded down. */
  income_by_month: Array<{ month: string; cents: number }>;
}

export async function memberDashboardStats(memberId: number, profiles?: DashboardProfiles): Promise<MemberDashboardStats | null> {
  return (await statsQuery(memberId, profiles, false))?.stats ?? null;
}

/** The dashboard page's data: the stats and the recent projects and work requests, in the stats' one statement. */
export async function memberDashboardOverview(
  memberId: number,
  profiles?: DashboardProfiles,
): Promise<{ stats: MemberDashboardStats; projects: DashboardProject[]; workRequests: DashboardWorkRequest[] } | null> {
  const overview = await statsQuery(memberId, profiles, true);
  return overview && { stats: overview.stats, projects: overview.projects ?? [], workRequests: overview.workRequests ?? [] };
}

async function statsQuery(memberId: number, profiles: DashboardProfiles | undefined, withRecent: boolean) {
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
      projects: sql<{ all: number; open: number }>`(select json_build_object('all', count(*)::int,
          'open', (count(*) filter (where p.status in (${inList(OPEN_PROJECT)})))::int)
        from projects p where p.client_id = ${memberId} or p.provider_owner_id = ${memberId})`,
      workRequests: sql<{ all: number; open: number }>`(select json_build_object('all', count(*)::int,
          'open', (count(*) filter (where w.status in (${inList(OPEN_WORK_REQUEST)})))::int)
        from work_requests w where w.client_id = ${memberId} or w.provider_owner_id = ${memberId})`,
      releasesSubmitted: sql<number>`(select count(*)::int from releases r
        where r.artist_id in (select am.artist_id from artist_members am where am.user_id = ${memberId})
          and r.status not in ('draft', 'rejected'))`,
      // posting_rollups.month is the sale month, else the entry's month, as on the income page.
      incomeByMonth: sql<Array<{
        month: string;
        amount: string;
      }> | null>`(select json_agg(json_build_object('month', x.month, 'amount', x.amount::text) order by x.month)
        from (select to_char(ps.month, 'YYYY-MM') as month, sum(ps.amount_micros) as amount
            from ledger_accounts a
            join posting_rollups ps on ps.account_id = a.id and ps.dim = '' and ps.source <> ''
            where a.user_id = ${memberId} and a.kind = 'earnings' and a.currency = 'USD'
            group by ps.month order by ps.month desc limit 12) x)`,
      projectsRecent: withRecent ? sql<DashboardProject[]>`${recentProjectsJson(memberId)}` : sql<null>`null`,
      workRequestsRecent: withRecent ? sql<DashboardWorkRequest[]>`${recentWorkRequestsJson(memberId)}` : sql<null>`null`,
    })
    .from(users)
    .where(eq(users.id, memberId));
  if (!row) return null;
  const p = profiles ?? (await loadDashboardProfiles(memberId));
  const stats: MemberDashboardStats = {
    member_since: row.createdAt.toISOString(),
    email_verified: Boolean(row.emailVerifiedAt),
    has_avatar: Boolean(row.avatarImg),
    documents_agreed: row.agreed,
    documents_required: row.required,
    artists: p.artists.length,
    provider_profiles: [p.musician, p.audio_engineer, p.studio, p.music_producer].filter(Boolean).length,
    projects: row.projects.all,
    projects_open: row.projects.open,
    work_requests: row.workRequests.all,
    work_requests_open: row.workRequests.open,
    releases_submitted: row.releasesSubmitted,
    balance_cents: Number(microsToCentsFloor(BigInt(row.balanceMicros ?? "0"))),
    currency: "USD",
    income_by_month: (row.incomeByMonth ?? []).map((m) => ({ month: m.month, cents: Number(microsToCentsFloor(BigInt(m.amount))) })),
  };
  return { stats, projects: row.projectsRecent, workRequests: row.workRequestsRecent };
}

/** One of the member's recent projects on the dashboard (GET /api/members/{id}/dashboard/projects). */
export interface DashboardProject {
  id: number;
  service: MarketplaceService;
  stage: ProjectStage;
  status: string;
  funding_status: string;
  /** The member's side: "client" (they hired) or "provider" (they were hired). */
  role: "client" | "provider";
  /** The other side: the provider profile's name for a client, the client's name for a provider. */
  counterpart: string;
  amount_cents: number;
  updated_at: string;
}

/** One of the member's recent work requests on the dashboard (GET /api/members/{id}/dashboard/work-requests). */
export interface DashboardWorkRequest {
  id: number;
  service: MarketplaceService;
  status: string;
  role: "client" | "provider";
  counterpart: string;
  budget_cents: number;
  deadline: string;
  updated_at: string;
}

/**
 * The member's latest projects as either party, open ones first, as a JSON array (a subquery). The five are cut
 * from the member's own rows before the names are joined (a member with 10,000 requests joins five, not all).
 */
function recentProjectsJson(memberId: number) {
  return sql`(select coalesce(json_agg(x), '[]'::json) from (
    select p.id, p.service, p.stage, p.status, p.funding_status,
      case when p.client_id = ${memberId} then 'client' else 'provider' end as role,
      case when p.client_id = ${memberId} then pr.name else trim(u.name || ' ' || coalesce(u.last_name, '')) end as counterpart,
      p.amount_cents::int as amount_cents,
      to_char(p.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as updated_at
    from (select * from projects p
      where p.client_id = ${memberId} or p.provider_owner_id = ${memberId}
      order by (p.status in (${inList(OPEN_PROJECT)})) desc, p.updated_at desc, p.id desc
      limit ${RECENT}) p
    join profiles pr on pr.id = p.provider_profile_id
    join users u on u.id = p.client_id
    order by (p.status in (${inList(OPEN_PROJECT)})) desc, p.updated_at desc, p.id desc) x)`;
}

/** The member's latest work requests, sent or received, open ones first, as a JSON array (a subquery). */
function recentWorkRequestsJson(memberId: number) {
  return sql`(select coalesce(json_agg(x), '[]'::json) from (
    select w.id, w.service, w.status,
      case when w.client_id = ${memberId} then 'client' else 'provider' end as role,
      case when w.client_id = ${memberId} then pr.name else trim(u.name || ' ' || coalesce(u.last_name, '')) end as counterpart,
      w.budget_cents::int as budget_cents, to_char(w.deadline, 'YYYY-MM-DD') as deadline,
      to_char(w.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as updated_at
    from (select * from work_requests w
      where w.client_id = ${memberId} or w.provider_owner_id = ${memberId}
      order by (w.status in (${inList(OPEN_WORK_REQUEST)})) desc, w.updated_at desc, w.id desc
      limit ${RECENT}) w
    join profiles pr on pr.id = w.provider_profile_id
    join users u on u.id = w.client_id
    order by (w.status in (${inList(OPEN_WORK_REQUEST)})) desc, w.updated_at desc, w.id desc) x)`;
}

async function firstValue<T>(subquery: SQL): Promise<T> {
  const result = await db().execute(sql`select ${subquery} as value`);
  return (result as unknown as { rows: Array<{ value: T }> }).rows[0]!.value;
}

/** GET /api/members/{id}/dashboard/projects. One statement. */
export async function memberDashboardProjects(memberId: number): Promise<{ data: DashboardProject[] }> {
  return { data: await firstValue<DashboardProject[]>(recentProjectsJson(memberId)) };
}

/** GET /api/members/{id}/dashboard/work-requests. One statement. */
export async function memberDashboardWorkRequests(memberId: number): Promise<{ data: DashboardWorkRequest[] }> {
  return { data: await firstValue<DashboardWorkRequest[]>(recentWorkRequestsJson(memberId)) };
}
