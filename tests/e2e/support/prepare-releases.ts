/** E2E data for the catalogue's releases specs (tests/e2e/catalog/), made before the server starts. */
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { db } from "../../../app/db/client.server";
import { artistMembers, profiles, referenceValues, releaseStatusHistory, releases, songs } from "../../../app/db/schema";
import { replaceSongWriters } from "../../../app/modules/catalog/catalog.server";
import { setCoverArt } from "../../../app/modules/catalog/releases/cover-art.server";
import { addTrack } from "../../../app/modules/catalog/releases/release-editor.server";
import { findRelease } from "../../../app/modules/catalog/catalog.server";
import { createReadyMembers } from "./community-members.server";
import {
  EXPLICIT_RELEASE,
  NEW_TRACKS_RELEASE,
  PLAIN_TRACKS_RELEASE,
  RELEASE_ARTISTS,
  RELEASE_MEMBERS,
  RELEASE_PASSWORD,
  REJECT_RELEASE,
  SUBMIT_RELEASE,
  type ReleaseMemberKey,
} from "./release-accounts";

function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export async function prepareReleasesData(): Promise<string> {
  const keys = Object.keys(RELEASE_MEMBERS) as ReleaseMemberKey[];
  const ids = await createReadyMembers(
    keys.map((key) => ({ email: RELEASE_MEMBERS[key], name: "Rae", lastName: `Release ${key}` })),
    RELEASE_PASSWORD,
  );
  const [genre] = await db().select({ id: referenceValues.id }).from(referenceValues).where(eq(referenceValues.kind, "genre")).limit(1);
  const [language] = await db()
    .select({ id: referenceValues.id })
    .from(referenceValues)
    .where(and(eq(referenceValues.kind, "language"), eq(referenceValues.name, "English")))
    .limit(1);
  const cover = await sharp({ create: { width: 1400, height: 1400, channels: 3, background: "#224466" } })
    .jpeg()
    .toBuffer();
  const now = new Date();

  for (const [key, artist] of Object.entries(RELEASE_ARTISTS)) {
    const ownerId = ids.get(RELEASE_MEMBERS[artist.owner])!;
    const [created] = await db()
      .insert(profiles)
      .values({
        type: "artist",
        ownerId,
        name: artist.name,
        username: artist.username,
        bio: `${artist.name}: release tests.`,
        status: "published",
        publishedAt: now,
      })
      .returning({ id: profiles.id });
    const artistId = created!.id;
    await db().insert(artistMembers).values({ artistId, userId: ownerId, role: "owner", canEdit: true });
    const songIds: number[] = [];
    for (const title of artist.songs) {
      const [song] = await db()
        .insert(songs)
        // The wizard artist's song is explicit, on a release that is not: the preflight's reason code.
        .values({
          artistId,
          title,
          explicit: key === "wizard",
          durationSeconds: 201,
          audioFormat: "wav",
          audioBitDepth: 24,
          audioSampleRate: 48_000,
          audioChannels: 2,
          languageId: language?.id ?? null,
          createdBy: ownerId,
        })
        .returning({ id: songs.id });
      await replaceSongWriters(song!.id, [{ name: `Rae Release ${artist.owner}`, userId: ownerId, shareBps: 10_000 }]);
      songIds.push(song!.id);
    }
    if (key !== "submit" && key !== "reject" && key !== "wizard" && key !== "newtracks" && key !== "plaintracks") continue;

    // A complete release: submittable as it is (submit), or already waiting for review (reject); the wizard's
    // lacks only its parental advisory; the new tracks' has no track yet.
    const meta = { submit: SUBMIT_RELEASE, reject: REJECT_RELEASE, wizard: EXPLICIT_RELEASE, newtracks: NEW_TRACKS_RELEASE, plaintracks: PLAIN_TRACKS_RELEASE }[
      key
    ];
    const [release] = await db()
      .insert(releases)
      .values({
        artistId,
        title: meta.title,
        slug: meta.slug,
        type: "single",
        label: `${artist.name} Records`,
        pLine: `℗ 2027 ${artist.name}`,
        cLine: `© 2027 ${artist.name}`,
        primaryGenreId: genre?.id ?? null,
        languageId: language?.id ?? null,
        releaseDate: daysFromNow(40),
        stores: ["spotify", "apple_music"],
        territories: ["WW"],
        createdBy: ownerId,
      })
      .returning();
    await db().insert(releaseStatusHistory).values({ releaseId: release!.id, fromStatus: null, toStatus: "draft", actorId: ownerId });
    if (songIds[0]) await addTrack((await findRelease(release!.id))!, songIds[0]);
    await setCoverArt(release!, new File([new Uint8Array(cover)], "cover.jpg", { type: "image/jpeg" }));
    if (key === "reject") {
      await db().update(releases).set({ status: "pending_approval", submittedAt: now, upc: "196589999993" }).where(eq(releases.id, release!.id));
      await db().insert(releaseStatusHistory).values({ releaseId: release!.id, fromStatus: "draft", toStatus: "pending_approval", actorId: ownerId });
    }
  }
  return `${keys.length} members and ${Object.keys(RELEASE_ARTISTS).length} artists for catalog/releases`;
}
