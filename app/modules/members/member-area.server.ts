import { and, asc, eq, isNotNull, ne, or, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { artistMembers, profiles, users, type User } from "~/db/schema";
import { notFound, requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import type { RouterContextProvider } from "react-router";
import { fullName } from "~/modules/accounts/current-user.server";
import { sessionUserOf } from "~/modules/accounts/session-user.server";
import { oncePerRequest } from "~/request-context";

/**
 * The member's profiles shown in menus and on the dashboard: the artist pages they own
 * or play in, their provider profiles, and the affiliate they own (any status, so the menu leads
 * an applicant to their application's state).
 */
export interface DashboardProfiles {
  owned_affiliate: { id: number } | null;
  /** Every band the member is in; `can_edit` (owner or given rights) decides where the menu entry leads. */
  artists: Array<{ id: number; name: string; username: string; can_edit: boolean }>;
  musician: { id: number } | null;
  audio_engineer: { id: number } | null;
  studio: { id: number } | null;
  music_producer: { id: number } | null;
}

export interface MemberAreaUser {
  id: number;
  name: string;
  last_name: string;
  fullname: string;
  email: string;
  avatar_img: string | null;
  acct_type: number;
  profiles: DashboardProfiles;
}

/** One query: provider profiles the member owns, and artists whose band they belong to (owners included). */
export async function loadDashboardProfiles(memberId: number): Promise<DashboardProfiles> {
  const rows = await db()
    .select({
      id: profiles.id,
      type: profiles.type,
      name: profiles.name,
      username: profiles.username,
      canEdit: artistMembers.canEdit,
      // The member's affiliate, in the same statement (a scalar subquery on each row; see below when there is no row).
      affiliateId: sql<number | null>`(select a.id from affiliates a where a.user_id = ${memberId})`.as("affiliate_id"),
    })
    .from(profiles)
    .leftJoin(artistMembers, and(eq(artistMembers.artistId, profiles.id), eq(artistMembers.userId, memberId)))
    .where(or(and(ne(profiles.type, "artist"), eq(profiles.ownerId, memberId)), isNotNull(artistMembers.userId)))
    // Without any profile the statement still answers one row (the affiliate's), through the union below.
    .unionAll(
      db()
        .select({
          id: sql<number>`0`,
          type: sql<(typeof profiles.$inferSelect)["type"]>`'affiliate'`,
          name: sql<string>`''`,
          username: sql<string>`''`,
          canEdit: sql<boolean | null>`null`,
          affiliateId: sql<number | null>`a.id`.as("affiliate_id"),
        })
        .from(sql`affiliates a`)
        .where(sql`a.user_id = ${memberId}`),
    )
    .orderBy(asc(profiles.name), asc(profiles.id));
  const one = (type: string) => {
    const row = rows.find((r) => r.type === type);
    return row ? { id: row.id } : null;
  };
  return {
    owned_affiliate: rows.find((r) => r.affiliateId !== null)?.affiliateId ? { id: Number(rows.find((r) => r.affiliateId !== null)!.affiliateId) } : null,
    artists: rows.filter((r) => r.type === "artist").map((r) => ({ id: r.id, name: r.name, username: r.username, can_edit: r.canEdit === true })),
    musician: one("musician"),
    audio_engineer: one("audio_engineer"),
    studio: one("studio"),
    music_producer: one("music_producer"),
  };
}

/** The member's profiles, read once per request however many loaders show them (layout menu and dashboard). */
export function memberProfilesFor(context: Readonly<RouterContextProvider>, memberId: number): Promise<DashboardProfiles> {
  return oncePerRequest(context, `dashboard-profiles:${memberId}`, () => loadDashboardProfiles(memberId));
}

/**
 * The member whose area is open (GET /api/members/profile/member-area/{id}); null when there is none.
 * In one's own area the user is the request's session user (no statement); an admin opening another
 * member's area reads that member.
 */
export async function loadMemberAreaUser(context: Readonly<RouterContextProvider>, memberId: number): Promise<MemberAreaUser | null> {
  const sessionUser = sessionUserOf(context).user;
  const [member, profiles] = await Promise.all([
    sessionUser?.id === memberId
      ? sessionUser
      : db()
          .select()
          .from(users)
          .where(eq(users.id, memberId))
          .limit(1)
          .then(([row]) => row),
    memberProfilesFor(context, memberId),
  ]);
  if (!member) return null;
  return {
    id: member.id,
    name: member.name,
    last_name: member.lastName,
    fullname: fullName(member),
    email: member.email,
    avatar_img: member.avatarImg,
    acct_type: member.acctType,
    profiles,
  };
}

/**
 * The member whose area the request opens, as a full user row: the session user in their own area (no
 * statement), the member an admin opened otherwise (one statement). 404 when there is none.
 */
export async function memberOfArea(request: Request, context: Readonly<RouterContextProvider>, memberIdParam: string | undefined): Promise<User> {
  const { user, memberId } = requireMemberAreaAccess(request, context, memberIdParam);
  if (user.id === memberId) return user as User;
  const [member] = await db().select().from(users).where(eq(users.id, memberId)).limit(1);
  if (!member) throw notFound();
  return member;
}
