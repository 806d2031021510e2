import { and, asc, eq, inArray, or } from "drizzle-orm";
import { data } from "react-router";
import { db } from "~/db/client.server";
import { artistMembers, profiles, type ProfileStatus, type ProfileType, type ReferenceKind } from "~/db/schema";
import { requireAdminUser, requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { loadReferenceOptions, type ReferenceOption } from "~/modules/reference/reference-options.server";
import { handleCreateProfile } from "./create-profile-action.server";
import {
  DIRECTORY_FILTER_KINDS,
  directorySorts,
  parseDirectoryQuery,
  type DirectoryFilterKind,
  type DirectoryQuery,
  type DirectorySort,
} from "./directory-query";
import { listDirectory, type DirectoryList } from "./directory.server";
import { DJ_SKILL, PROFILE_TYPE_INFO, REFERENCE_LABELS, SONGWRITER_SKILL } from "./profile-types";
import { readForm } from "~/modules/security/form-body.server";
import type { RouteArgs } from "~/request-context";

/**
 * Loaders and the action behind every directory route (member and admin community lists, admin DJs and
 * Songwriters): guard, parse the URL, load the filter options and the page. Route files pass their type.
 */

export interface DirectoryFilter {
  kind: DirectoryFilterKind;
  label: string;
  options: ReferenceOption[];
}

export interface OwnProfile {
  id: number;
  name: string;
  status: ProfileStatus;
}

/** The "Your profile" box of a member directory. */
export type OwnProfiles = { provider: false; artists: OwnProfile[] } | { provider: true; profile: OwnProfile | null };

export interface DirectoryPageData {
  area: "member" | "admin";
  /** The list's heading ("Musician Pages", "DJs"). */
  heading: string;
  intro: string;
  /** null: every provider type (the skill lists); cards then say which type each one is. */
  type: ProfileType | null;
  memberId: number | null;
  query: DirectoryQuery;
  filters: DirectoryFilter[];
  sorts: DirectorySort[];
  list: DirectoryList;
  own: OwnProfiles | null;
  /** Admin lists carry the community sub-navigation. */
  adminNav: boolean;
}

type Args = RouteArgs;

const filterKinds = (kinds: readonly ReferenceKind[]) => DIRECTORY_FILTER_KINDS.filter((kind) => kinds.includes(kind));

/** Filter ids the select does not offer (retired, another kind, made up) are dropped, so the form shows what is applied. */
function keepOffered(query: DirectoryQuery, options: Record<ReferenceKind, ReferenceOption[]>): DirectoryQuery {
  const filters = { ...query.filters };
  for (const kind of DIRECTORY_FILTER_KINDS) {
    const id = filters[kind];
    if (id !== null && !options[kind].some((o) => o.id === id)) filters[kind] = null;
  }
  return { ...query, filters };
}

async function loadDirectory(
  request: Request,
  scope: { type: ProfileType; skillName?: undefined } | { type?: undefined; skillName: string },
  kinds: readonly DirectoryFilterKind[],
  rates: boolean,
) {
  const parsed = parseDirectoryQuery(new URL(request.url).searchParams, { kinds, rates });
  const options = await loadReferenceOptions(kinds);
  const query = keepOffered(parsed, options);
  const list = await listDirectory({
    ...scope,
    q: query.q,
    location: query.location,
    ...query.filters,
    sort: query.sort,
    page: query.page,
  });
  const filters = kinds.map((kind) => ({ kind, label: REFERENCE_LABELS[kind].singular, options: options[kind] }));
  return { query, list, filters, sorts: directorySorts(rates) };
}

/** The member's own pages of `type`: artist pages they own or play in, or their one provider profile. One query. */
async function loadOwnProfiles(memberId: number, type: ProfileType): Promise<OwnProfiles> {
  const select = { id: profiles.id, name: profiles.name, status: profiles.status };
  if (type === "artist") {
    const artists = await db()
      .select(select)
      .from(profiles)
      .where(
        and(
          eq(profiles.type, "artist"),
          or(
            eq(profiles.ownerId, memberId),
            inArray(profiles.id, db().select({ id: artistMembers.artistId }).from(artistMembers).where(eq(artistMembers.userId, memberId))),
          ),
        ),
      )
      .orderBy(asc(profiles.name), asc(profiles.id));
    return { provider: false, artists };
  }
  const [profile] = await db()
    .select(select)
    .from(profiles)
    .where(and(eq(profiles.type, type), eq(profiles.ownerId, memberId)))
    .limit(1);
  return { provider: true, profile: profile ?? null };
}

export async function memberDirectoryLoader({ request, params, context }: Args, type: ProfileType): Promise<DirectoryPageData> {
  const { memberId } = await requireMemberAreaAccess(request, context, params.memberId);
  const info = PROFILE_TYPE_INFO[type];
  const [directory, own] = await Promise.all([loadDirectory(request, { type }, filterKinds(info.reference), info.provider), loadOwnProfiles(memberId, type)]);
  return {
    area: "member",
    heading: `${info.label} Pages`,
    intro: info.provider
      ? `Published ${info.plural.toLowerCase()} on Backline. Search by name, filter by what they do, and compare rates.`
      : "Published artist pages on Backline. Search by name or filter by genre and location.",
    type,
    memberId,
    ...directory,
    own,
    adminNav: false,
  };
}

/** POST on a member directory: intent "create-profile" creates the member's page of this type (helper of the profile editor). */
export async function memberDirectoryAction({ request, params, context }: Args, type: ProfileType) {
  const { user, memberId } = await requireMemberAreaAccess(request, context, params.memberId);
  const formData = await readForm(request);
  if (formData.get("intent") === "create-profile") {
    return handleCreateProfile({ formData, actor: user, memberId, type });
  }
  return data({ form: "unknown" as const, error: "This page cannot do that." }, { status: 400 });
}

export async function adminDirectoryLoader({ request, context }: Args, type: ProfileType): Promise<DirectoryPageData> {
  await requireAdminUser(request, context);
  const info = PROFILE_TYPE_INFO[type];
  const directory = await loadDirectory(request, { type }, filterKinds(info.reference), info.provider);
  return {
    area: "admin",
    heading: `${info.label} Pages`,
    intro: `Published ${info.plural.toLowerCase()}, as members see them. Drafts and submissions are under ${info.plural} in Profiles.`,
    type,
    memberId: null,
    ...directory,
    own: null,
    adminNav: true,
  };
}

export const SKILL_LISTS = {
  djs: { skill: DJ_SKILL, heading: "DJs", intro: `Published provider profiles carrying the ${DJ_SKILL} skill, of every type.` },
  songwriters: {
    skill: SONGWRITER_SKILL,
    heading: "Songwriters",
    intro: `Published provider profiles carrying the ${SONGWRITER_SKILL} skill, of every type.`,
  },
} as const;

export async function adminSkillListLoader({ request, context }: Args, list: keyof typeof SKILL_LISTS): Promise<DirectoryPageData> {
  await requireAdminUser(request, context);
  const { skill, heading, intro } = SKILL_LISTS[list];
  const directory = await loadDirectory(request, { skillName: skill }, ["genre", "instrument"], true);
  return { area: "admin", heading, intro, type: null, memberId: null, ...directory, own: null, adminNav: true };
}
