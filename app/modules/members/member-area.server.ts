import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { users } from "~/db/schema";
import { fullName } from "~/modules/accounts/current-user.server";

/**
 * The member's profiles shown in menus and on the dashboard (spec section 3). Artists, provider
 * profiles and affiliates arrive with their own issues; until their tables exist the lists are empty.
 */
export interface DashboardProfiles {
  owned_affiliate: { id: number } | null;
  artists: Array<{ id: number; name: string }>;
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

export async function loadDashboardProfiles(_memberId: number): Promise<DashboardProfiles> {
  return { owned_affiliate: null, artists: [], musician: null, audio_engineer: null, studio: null, music_producer: null };
}

/** The member whose area is open (GET /api/members/profile/member-area/{id}); null when there is none. */
export async function loadMemberAreaUser(memberId: number): Promise<MemberAreaUser | null> {
  const [member] = await db().select().from(users).where(eq(users.id, memberId)).limit(1);
  if (!member) return null;
  return {
    id: member.id,
    name: member.name,
    last_name: member.lastName,
    fullname: fullName(member),
    email: member.email,
    avatar_img: member.avatarImg,
    acct_type: member.acctType,
    profiles: await loadDashboardProfiles(member.id),
  };
}
