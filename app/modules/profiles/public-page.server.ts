import { and, asc, eq, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { profileReviews } from "~/modules/marketplace/reviews.server";
import {
  artistMembers,
  profiles,
  users,
  type BandRole,
  type Profile,
  type ProfileCredit,
  type ProfileLink,
  type ProfileStatus,
  type ProfileType,
  type RateUnit,
  type ReferenceKind,
  type User,
} from "~/db/schema";
import { env } from "~/env.server";
import { notFound, requireAdminUser, requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { toHashtags } from "~/components/share/share-networks";
import { heroImage, loadProfileExtras, type ProfileValue } from "./profile-details.server";
import { listVerifiedCreditsOfUser } from "~/modules/catalog/catalog.server";
import { PUBLIC_RELEASE_STATUSES } from "~/modules/catalog/release-page/release-visibility";
import { releasePagePath } from "~/modules/catalog/releases/release-options";
import { handleBandIntent } from "./band-actions.server";
import { profileRights } from "./profile-access.server";
import { projectCreditsOfProfile } from "~/modules/marketplace/project-credits.server";
import { PROFILE_STATUS_LABELS, PROFILE_TYPE_INFO, profilePaths } from "./profile-types";
import { readForm } from "~/modules/security/form-body.server";
import { routeError } from "~/modules/http/route-errors.server";
import type { RouteArgs } from "~/request-context";

/**
 * The public page of an artist or provider profile (`{directory}/{username}` in either area). Everyone
 * in the area sees a published profile; any other status only its owner, its band members and
 * administrators (with a banner), everyone else a 404 that says nothing of the profile.
 */

export interface PublicPageData {
  area: "member" | "admin";
  type: ProfileType;
  profile: {
    id: number;
    name: string;
    username: string;
    bio: string;
    location: string;
    avatarImg: string | null;
    links: ProfileLink[];
    sampleLinks: ProfileLink[];
    credits: ProfileCredit[];
  };
  /** The type's reference kinds, in form order, with the values the profile carries. */
  values: Array<{ kind: ReferenceKind; values: ProfileValue[] }>;
  rates: Array<{ id: number; label: string; amountCents: number; currency: string; unit: RateUnit }>;
  hero: { src: string; srcSet: string } | null;
  /** Artists: the band's members, names only. */
  band: Array<{ name: string; role: BandRole }>;
  /** The viewer is a band member other than the owner, in their own area: they may leave the band here. */
  canLeaveBand: boolean;
  /** Shown to those who may edit the profile. */
  editPath: string | null;
  /** Providers: the page asking this profile for work; null on the viewer's own or an unpublished profile. */
  hirePath: string | null;
  /** Set when the profile is not published (only people with rights get this far). */
  notPublic: { status: ProfileStatus; label: string; rejectionReason: string | null } | null;
  directoryPath: string;
  share: { url: string; title: string; description: string; hashtags: string[]; twitterUser?: string; media?: string };
  /** Providers: the owner's verified song credits on released music, each linking to its release page. */
  verifiedCredits: Array<{ role: string; songTitle: string; releaseTitle: string; artistName: string; href: string }>;
  /** A provider's verified reviews (completed, paid projects): the newest ten, the count and the average. */
  /** Songs this provider was hired for through Backline and paid (completed projects), on public releases. */
  projectCredits: Array<{ projectId: number; service: string; songTitle: string; artistName: string }>;
  reviews: { count: number; average: string | null; items: Array<{ id: number; rating: number; body: string; clientName: string; createdAt: string }> } | null;
}

type Args = RouteArgs;

const SHARE_DESCRIPTION_MAX = 200;
const SHARE_HASHTAGS = 3;

/** A profile of `type` by username, case-insensitively (served by profiles_type_username_unique). */
export async function findProfileByUsername(type: ProfileType, username: string): Promise<Profile | null> {
  const [profile] = await db()
    .select()
    .from(profiles)
    .where(and(eq(profiles.type, type), eq(sql`lower(${profiles.username})`, username.toLowerCase())))
    .limit(1);
  return profile ?? null;
}

/** The X (Twitter) handle of the profile's links, for the share's `via`. */
export function twitterHandle(links: readonly ProfileLink[]): string | undefined {
  for (const link of links) {
    try {
      const url = new URL(link.url);
      if (!/^(www\.|mobile\.)?(twitter|x)\.com$/i.test(url.hostname)) continue;
      const handle = url.pathname.split("/").filter(Boolean)[0];
      if (handle && /^[A-Za-z0-9_]{1,15}$/.test(handle) && !["intent", "share", "home", "i", "search"].includes(handle.toLowerCase())) return handle;
    } catch {
      // Not a URL: skip it.
    }
  }
  return undefined;
}

function shareDescription(bio: string): string {
  const flat = bio.replace(/\s+/g, " ").trim();
  return flat.length <= SHARE_DESCRIPTION_MAX ? flat : `${flat.slice(0, SHARE_DESCRIPTION_MAX - 1).trimEnd()}…`;
}

/** Only web addresses become links (anything else stored by mistake is dropped, never rendered as a link). */
const webLinks = (links: readonly ProfileLink[]) => links.filter((l) => /^https?:\/\//i.test(l.url));

export async function loadPublicPage(
  user: User,
  type: ProfileType,
  usernameParam: string | undefined,
  area: "member" | "admin",
  memberId?: number,
): Promise<PublicPageData> {
  if (!usernameParam || usernameParam.length > 100) throw notFound();
  const profile = await findProfileByUsername(type, usernameParam);
  if (!profile) throw notFound();
  const published = profile.status === "published";
  const provider = PROFILE_TYPE_INFO[type].provider;
  const [rights, extras, bandMembers, verifiedCredits, reviews, projectCredits] = await Promise.all([
    profileRights(user, profile),
    loadProfileExtras([profile.id]),
    type === "artist" ? loadBandMembers(profile.id) : Promise.resolve([]),
    PROFILE_TYPE_INFO[type].provider ? listVerifiedCreditsOfUser(profile.ownerId, PUBLIC_RELEASE_STATUSES) : Promise.resolve([]),
    PROFILE_TYPE_INFO[type].provider ? profileReviews(profile.id, 10) : Promise.resolve(null),
    provider ? projectCreditsOfProfile(profile.id, PUBLIC_RELEASE_STATUSES) : Promise.resolve([]),
  ]);
  // Everyone in the band sees its page (their menu links here), published or not; editing needs rights.
  const inBand = bandMembers.some((m) => m.userId === user.id);
  if (!published && !rights && !inBand) throw notFound();
  const band = bandMembers.map(({ name, role }) => ({ name, role }));
  const membership = bandMembers.find((m) => m.userId === user.id);
  const canLeaveBand = area === "member" && memberId === user.id && membership?.role === "member";

  const info = PROFILE_TYPE_INFO[type];
  const paths = profilePaths(type, area, memberId);
  const { values, rates } = extras.get(profile.id)!;
  const hero = heroImage(profile);
  const appUrl = env().APP_URL;
  return {
    area,
    type,
    profile: {
      id: profile.id,
      name: profile.name,
      username: profile.username,
      bio: profile.bio,
      location: profile.location,
      avatarImg: type === "artist" ? profile.avatarImg : null,
      links: webLinks(profile.links),
      sampleLinks: info.provider ? webLinks(profile.sampleLinks) : [],
      credits: info.provider ? profile.credits : [],
    },
    values: info.reference.map((kind) => ({ kind, values: values[kind] })),
    rates: info.provider ? rates.map((r) => ({ id: r.id, label: r.label, amountCents: r.amountCents, currency: r.currency, unit: r.unit })) : [],
    hero,
    band,
    canLeaveBand,
    editPath: rights ? paths.ownerPage(profile.id) : null,
    hirePath: info.provider && published && profile.ownerId !== user.id ? `${paths.directory}/${profile.id}/create-work-request` : null,
    notPublic: published
      ? null
      : {
          status: profile.status,
          label: PROFILE_STATUS_LABELS[profile.status],
          rejectionReason: profile.status === "rejected" ? profile.rejectionReason : null,
        },
    directoryPath: paths.directory,
    share: {
      url: `${appUrl}${paths.publicPage(profile.username)}`,
      title: `${profile.name} on Backline`,
      description: shareDescription(profile.bio),
      hashtags: toHashtags(values.genre.map((v) => v.name)).slice(0, SHARE_HASHTAGS),
      twitterUser: twitterHandle(profile.links),
      media: hero ? `${appUrl}${hero.src}` : undefined,
    },
    verifiedCredits: verifiedCredits.map((c) => ({
      role: c.role === "producer" ? "Producer" : "Featured artist",
      songTitle: c.songTitle,
      releaseTitle: c.release.title,
      artistName: c.artist.name,
      href: releasePagePath(area === "admin" ? null : (memberId ?? user.id), { slug: c.release.slug, artist: c.artist }),
    })),
    projectCredits: projectCredits.map((c) => ({ projectId: c.projectId, service: c.service, songTitle: c.songTitle, artistName: c.artistName })),
    reviews: reviews
      ? {
          count: reviews.count,
          average: reviews.averageX100 === null ? null : (reviews.averageX100 / 100).toFixed(1),
          items: reviews.reviews.map((r) => ({ id: r.id, rating: r.rating, body: r.body, clientName: r.clientName, createdAt: r.createdAt.toISOString() })),
        }
      : null,
  };
}

/** The band's members by name (ids for the visibility check; never their emails), owner first. One query. */
async function loadBandMembers(artistId: number): Promise<Array<PublicPageData["band"][number] & { userId: number }>> {
  const rows = await db()
    .select({ userId: artistMembers.userId, name: users.name, lastName: users.lastName, role: artistMembers.role })
    .from(artistMembers)
    .innerJoin(users, eq(users.id, artistMembers.userId))
    .where(eq(artistMembers.artistId, artistId))
    .orderBy(sql`${artistMembers.role} = 'owner' desc`, asc(artistMembers.joinedAt), asc(artistMembers.userId));
  return rows.map((r) => ({ userId: r.userId, name: `${r.name} ${r.lastName}`.trim(), role: r.role }));
}

/** The loader of every `{directory}/{username}` route: the area's guard, then the page. */
export async function publicPageLoader({ request, params, context }: Args, type: ProfileType, area: "member" | "admin"): Promise<PublicPageData> {
  if (area === "admin") {
    const { user } = await requireAdminUser(request, context);
    return loadPublicPage(user, type, params.username, "admin");
  }
  const { user, memberId } = await requireMemberAreaAccess(request, context, params.memberId);
  return loadPublicPage(user, type, params.username, "member", memberId);
}

/**
 * The only form of a public page: a band member without editing rights leaving the band (those with
 * rights leave from the edit page). Anything else is refused.
 */
export async function publicPageAction({ request, params, context }: Args, type: ProfileType) {
  const { user } = await requireMemberAreaAccess(request, context, params.memberId);
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");
  if (type !== "artist" || intent !== "band-leave") throw routeError(400, "Unknown form.");
  const profile = params.username ? await findProfileByUsername(type, params.username) : null;
  if (!profile) throw notFound();
  const rights = await profileRights(user, profile);
  const handled = await handleBandIntent({ intent, formData, actor: user, profile, rights, redirectTo: new URL(request.url).pathname });
  if (!handled) throw routeError(400, "Unknown form.");
  return handled;
}
