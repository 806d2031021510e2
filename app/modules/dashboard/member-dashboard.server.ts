import { eq, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { legalDocuments, signatures, users } from "~/db/schema";
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
  balance_cents: number;
  currency: "USD";
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
    // Projects, work requests and the ledger arrive with their issues; nothing of them exists before.
    projects: 0,
    work_requests: 0,
    balance_cents: 0,
    currency: "USD",
  };
}

/** GET /api/members/{id}/dashboard/projects and work-requests: `{ data }` lists, empty until those features land. */
export async function memberDashboardProjects(_memberId: number): Promise<{ data: unknown[] }> {
  return { data: [] };
}

export async function memberDashboardWorkRequests(_memberId: number): Promise<{ data: unknown[] }> {
  return { data: [] };
}

