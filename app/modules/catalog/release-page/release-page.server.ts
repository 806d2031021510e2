import type { User } from "~/db/schema";
import { env } from "~/env.server";
import { requireAdminUser, requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { findReleaseBySlugs, loadSongPeople } from "~/modules/catalog/catalog.server";
import { artistReleaseRights } from "~/modules/catalog/releases/release-access.server";
import { releaseStatusPath } from "~/modules/catalog/releases/release-list.server";
import { coverVariant, releasePagePath } from "~/modules/catalog/releases/release-options";
import { PUBLIC_RELEASE_STATUSES } from "./release-visibility";
import { notFound } from "~/modules/http/route-errors.server";
import type { RouteArgs } from "~/request-context";

/**
 * The release page (`release-page/{artistSlug}/{releaseSlug}`, member and admin areas): cover, tracklist,
 * verified credits, date and tag, share links. Members see a release once the platform approved it;
 * before that (and once taken down) only its editors and administrators do; anyone else gets a 404.
 * Statements: the release and its tracks (2), the tracks' people (2), the rights (0 or 1).
 */

export type ReleasePageArea = "member" | "admin";

async function guard({ request, context, params }: RouteArgs, area: ReleasePageArea) {
  if (area === "admin") {
    const { user } = await requireAdminUser(request, context);
    return { user: user as User, memberId: null };
  }
  const { user, memberId } = await requireMemberAreaAccess(request, context, params.memberId);
  return { user: user as User, memberId };
}

export async function releasePageLoader(args: RouteArgs, area: ReleasePageArea) {
  const { user, memberId } = await guard(args, area);
  const release = await findReleaseBySlugs(args.params.artistSlug ?? "", args.params.releaseSlug ?? "");
  if (!release) throw notFound();
  const [rights, people] = await Promise.all([
    // An administrator, or a release members may see, needs no rights statement.
    area === "admin" ? Promise.resolve("admin" as const) : artistReleaseRights(user, release.artist),
    loadSongPeople(release.tracks.map((t) => t.songId)),
  ]);
  if (!rights && !(PUBLIC_RELEASE_STATUSES as readonly string[]).includes(release.status)) throw notFound();

  const tracks = release.tracks.map((track) => {
    const { writers, credits } = people.get(track.songId)!;
    const verified = credits.filter((c) => c.status === "accepted" && c.user);
    return {
      position: track.position,
      title: track.title,
      version: track.version,
      durationSeconds: track.durationSeconds,
      explicit: track.explicit,
      isCover: track.isCover,
      writers: writers.map((w) => w.name),
      producers: verified.filter((c) => c.role === "producer").map((c) => `${c.user!.name} ${c.user!.lastName}`.trim()),
      featured: verified.filter((c) => c.role === "featured_artist").map((c) => `${c.user!.name} ${c.user!.lastName}`.trim()),
    };
  });
  const path = releasePagePath(memberId, release);
  const appUrl = env().APP_URL;
  const cover = coverVariant(release.coverArtPath, "600x600");
  const totalSeconds = release.tracks.reduce((sum, t) => sum + (t.durationSeconds ?? 0), 0);
  return {
    area,
    release: {
      title: release.title,
      type: release.type,
      status: release.status,
      tag: release.tag,
      releaseDate: release.releaseDate,
      previousReleaseDate: release.previouslyReleased ? release.previousReleaseDate : null,
      parentalAdvisory: release.parentalAdvisory,
      label: release.label,
      pLine: release.pLine,
      cLine: release.cLine,
      primaryGenre: release.primaryGenre,
      upc: release.upc,
      artist: { name: release.artist.name, username: release.artist.username },
    },
    cover,
    tracks,
    totalSeconds,
    artistPath: area === "admin" ? `/admin/artists/${release.artist.username}` : `/member/${memberId}/artists/${release.artist.username}`,
    /** The owner's view (status, history, preflight), for those who may edit it. */
    managePath: rights ? (area === "admin" ? null : releaseStatusPath(memberId!, release)) : null,
    reviewPath: area === "admin" ? `/admin/release-profile/${release.id}` : null,
    share: {
      // As on the profile pages: the address of this page (members sign in to see it).
      url: `${appUrl}${path}`,
      title: `${release.title} by ${release.artist.name}`,
      description: release.releaseDate ? `Out ${release.releaseDate}` : `A release by ${release.artist.name}`,
      media: cover ? `${appUrl}${cover}` : undefined,
    },
  };
}

export type ReleasePageData = Awaited<ReturnType<typeof releasePageLoader>>;
