import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { countQueries, db } from "~/db/client.server";
import { artistMembers, notifications, profiles, releaseStatusHistory, releases, songs, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { findRelease, replaceSongWriters } from "~/modules/catalog/catalog.server";
import { upcProblem } from "~/modules/catalog/validators/codes";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { createSignedMember } from "../../../../tests/helpers/factories";
import { checkCoverUpload, CoverArtError, coverArtProblem, setCoverArt } from "./cover-art.server";
import { releasePreflight } from "./preflight.server";
import { editableArtists, requireMemberRelease } from "./release-access.server";
import { addTrack, createRelease, moveTrack, ReleaseEditError, removeTrack, updateReleaseDetails, updateReleaseStores } from "./release-editor.server";
import { listAllReleases, listMemberReleasePage, parseReleaseListQuery } from "./release-list.server";
import { slugFromTitle } from "./release-options";
import { ReleaseDetailsSchema, RejectSchema } from "./release-schemas";
import { approveRelease, markTakenDown, rejectRelease, ReleaseStatusError, requestTakedown, startDistribution, submitRelease } from "./release-status.server";

useTestDatabase();

const TODAY = "2026-11-25";
let mia: User;
let admin: User;
let stranger: User;
let bandEditor: User;
let artistId: number;

const details = (overrides: Record<string, unknown> = {}) =>
  ReleaseDetailsSchema.parse({
    title: "Night Bus",
    type: "single",
    label: "Owl Light Records",
    pLine: "℗ 2027 Mia",
    cLine: "© 2027 Mia",
    releaseDate: "2027-03-05",
    ...overrides,
  });

async function newSong(title: string, withAudio = true): Promise<number> {
  const [song] = await db()
    .insert(songs)
    .values({
      artistId,
      title,
      durationSeconds: withAudio ? 200 : null,
      ...(withAudio ? { audioFormat: "wav" as const, audioBitDepth: 24, audioSampleRate: 48_000, audioChannels: 2 } : {}),
    })
    .returning({ id: songs.id });
  await replaceSongWriters(song!.id, [{ name: "Mia Member", shareBps: 10_000 }]);
  return song!.id;
}

async function square(size: number, options: { format?: "jpeg" | "png"; width?: number; channels?: 3 | 4 } = {}) {
  const image = sharp({
    create: { width: options.width ?? size, height: size, channels: options.channels ?? 3, background: { r: 200, g: 60, b: 30, alpha: 1 } },
  });
  const buffer = await (options.format === "png" ? image.png() : image.jpeg()).toBuffer();
  return new File([new Uint8Array(buffer)], `cover.${options.format ?? "jpg"}`, { type: options.format === "png" ? "image/png" : "image/jpeg" });
}

beforeAll(async () => {
  await seedDemoData();
  mia = (await findUserByEmail("member@example.com"))!;
  admin = (await findUserByEmail("admin@example.com"))!;
  stranger = await createSignedMember("Stan");
  bandEditor = await createSignedMember("Bea");
  artistId = (await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.username, "midnight-owls")))[0]!.id;
  await db().insert(artistMembers).values({ artistId, userId: bandEditor.id, role: "member", canEdit: true });
});

describe("access", () => {
  it("lets the owner, a band editor and an admin open a release; anyone else gets 404", async () => {
    const release = await createRelease(mia, artistId, details({ title: "Access Check" }), TODAY);
    for (const actor of [mia, bandEditor, admin]) {
      expect((await requireMemberRelease(actor, String(release.id))).release.id).toBe(release.id);
    }
    await expect(requireMemberRelease(stranger, String(release.id))).rejects.toMatchObject({ init: { status: 404 } });
    await expect(requireMemberRelease(mia, "abc")).rejects.toMatchObject({ init: { status: 404 } });
    expect((await editableArtists(bandEditor.id)).map((a) => a.id)).toContain(artistId);
    expect(await editableArtists(stranger.id)).toEqual([]);
  });
});

describe("editing", () => {
  it("makes a slug from the title, unique per artist, and refuses a taken one asked for", async () => {
    expect(slugFromTitle("Live at the Roxy (2026)!")).toBe("live-at-the-roxy-2026");
    const a = await createRelease(mia, artistId, details({ title: "Same Name" }), TODAY);
    const b = await createRelease(mia, artistId, details({ title: "Same Name" }), TODAY);
    expect(a.slug).toBe("same-name");
    expect(b.slug).toBe("same-name-2");
    await expect(createRelease(mia, artistId, details({ title: "Other", slug: "same-name" }), TODAY)).rejects.toMatchObject({
      errors: { fields: { slug: [expect.stringContaining("already uses")] } },
    });
  });

  it("applies the date rules: 7 days ahead for a new release, the original date for a re-release", async () => {
    await expect(createRelease(mia, artistId, details({ releaseDate: "2026-11-28" }), TODAY)).rejects.toMatchObject({
      errors: { fields: { releaseDate: [expect.stringContaining("7 days")] } },
    });
    expect(ReleaseDetailsSchema.safeParse({ title: "X", type: "single", previouslyReleased: "on" }).success).toBe(false);
    const rerelease = await createRelease(
      mia,
      artistId,
      details({ title: "Old One", releaseDate: "2026-11-26", previouslyReleased: true, previousReleaseDate: "2019-05-01" }),
      TODAY,
    );
    expect(rerelease.previousReleaseDate).toBe("2019-05-01");
  });

  it("validates the UPC's check digit and refuses one another release uses", async () => {
    await expect(createRelease(mia, artistId, details({ title: "Bad UPC", upc: "196589000010" }), TODAY)).rejects.toBeInstanceOf(ReleaseEditError);
    await expect(createRelease(mia, artistId, details({ title: "Dup UPC", upc: "0196589000019" }), TODAY)).rejects.toMatchObject({
      errors: { fields: { upc: ["Another release already uses this UPC."] } },
    });
  });

  it("adds, moves and removes tracks of the same artist only, keeping positions 1..n", async () => {
    const release = await createRelease(mia, artistId, details({ title: "Track Work", type: "ep" }), TODAY);
    const ids = [await newSong("T1"), await newSong("T2"), await newSong("T3")];
    for (const id of ids) await addTrack((await findRelease(release.id))!, id);
    await expect(addTrack((await findRelease(release.id))!, ids[0]!)).rejects.toBeInstanceOf(ReleaseEditError);
    const [otherArtist] = await db()
      .insert(profiles)
      .values({ type: "artist", name: "Other", username: `other-${Date.now()}`, ownerId: stranger.id })
      .returning({ id: profiles.id });
    const [foreign] = await db().insert(songs).values({ artistId: otherArtist!.id, title: "Not yours" }).returning({ id: songs.id });
    await expect(addTrack((await findRelease(release.id))!, foreign!.id)).rejects.toMatchObject({
      errors: { fields: { songId: ["Choose one of this artist's songs."] } },
    });

    await moveTrack((await findRelease(release.id))!, ids[2]!, "up");
    expect((await findRelease(release.id))!.tracks.map((t) => t.songId)).toEqual([ids[0], ids[2], ids[1]]);
    await removeTrack((await findRelease(release.id))!, ids[0]!);
    const tracks = (await findRelease(release.id))!.tracks;
    expect(tracks.map((t) => [t.position, t.songId])).toEqual([
      [1, ids[2]],
      [2, ids[1]],
    ]);
  });
});

describe("cover art", () => {
  it("accepts a square RGB JPEG or PNG of 1400 pixels or more, warning under 3000", async () => {
    expect(coverArtProblem({ format: "jpeg", width: 3000, height: 3000, space: "srgb", channels: 3 })).toEqual({ error: null, warning: null });
    expect(coverArtProblem({ format: "jpeg", width: 1400, height: 1400, space: "srgb", channels: 3 }).warning).toContain("3000");
    expect(coverArtProblem({ format: "jpeg", width: 3000, height: 3000, space: "cmyk", channels: 4 }).error).toContain("RGB");
    expect(coverArtProblem({ format: "webp", width: 3000, height: 3000, space: "srgb", channels: 3 }).error).toContain("JPEG or PNG");
    await expect(checkCoverUpload(await square(1400, { width: 1500 }))).rejects.toThrow(/square/);
    await expect(checkCoverUpload(await square(1000))).rejects.toThrow(/at least 1400/);
    expect((await checkCoverUpload(await square(1400, { format: "png" }))).warning).toContain("3000");
  });

  it("stores the cover variants and points the release at the 1400 one", async () => {
    const release = await createRelease(mia, artistId, details({ title: "Cover Upload" }), TODAY);
    const { warning } = await setCoverArt(release, await square(1400));
    expect(warning).toContain("3000");
    const [row] = await db().select().from(releases).where(eq(releases.id, release.id));
    expect(row!.coverArtPath).toMatch(/^\/storage\/images\/cover\/\d+-[0-9a-f]{32}\/1400x1400\.webp$/);
    expect(row!.coverArtWidth).toBe(1400);
    await expect(setCoverArt({ id: release.id, status: "approved" }, await square(1400))).rejects.toBeInstanceOf(CoverArtError);
  });
});

/** A release that passes the preflight, with two tracks without ISRC. */
async function completeRelease(title: string) {
  const release = await createRelease(mia, artistId, details({ title, type: "single" }), TODAY);
  const genre = await db().execute<{ id: number }>(`select id from reference_values where kind = 'genre' limit 1` as never);
  const language = await db().execute<{ id: number }>(`select id from reference_values where kind = 'language' limit 1` as never);
  const id = (r: unknown) => (r as { rows: Array<{ id: number }> }).rows[0]!.id;
  await db()
    .update(releases)
    .set({
      primaryGenreId: id(genre),
      languageId: id(language),
      coverArtPath: "/storage/images/cover/1-00000000000000000000000000000000/1400x1400.webp",
      coverArtWidth: 3000,
      coverArtHeight: 3000,
    })
    .where(eq(releases.id, release.id));
  await updateReleaseStores(release, { stores: ["spotify"], territories: ["WW"] });
  for (const song of [await newSong(`${title} A`), await newSong(`${title} B`)]) await addTrack((await findRelease(release.id))!, song);
  return (await findRelease(release.id, TODAY))!;
}

describe("preflight", () => {
  it("lists each problem with its reason code, field and a link to the field, in a bounded number of statements", async () => {
    const release = await createRelease(mia, artistId, details({ title: "Incomplete", type: "album" }), TODAY);
    await addTrack((await findRelease(release.id))!, await newSong("No audio", false));
    const detail = (await findRelease(release.id, TODAY))!;
    const { result: problems, count } = await countQueries(() => releasePreflight(detail, { area: "member", memberId: mia.id }, TODAY));
    expect(count).toBeLessThanOrEqual(3);
    const codes = problems.map((p) => p.code);
    expect(codes).toEqual(expect.arrayContaining(["release_cover_missing", "release_type_mismatch", "track_audio_missing", "release_stores_missing"]));
    const audio = problems.find((p) => p.code === "track_audio_missing")!;
    expect(audio.fixHref).toMatch(new RegExp(`^/member/${mia.id}/song-profile/\\d+#audio$`));
    expect(problems.find((p) => p.code === "release_cover_missing")!.fixHref).toBe(`/member/${mia.id}/release-profile/${release.id}#field-cover`);
  });

  it("has no blocking problem for a complete release", async () => {
    const release = await completeRelease("Complete One");
    const problems = await releasePreflight(release, { area: "admin" }, TODAY);
    expect(problems.filter((p) => p.blocking)).toEqual([]);
    expect(problems.map((p) => p.code)).toContain("release_upc_will_be_assigned");
  });
});

describe("status transitions", () => {
  it("refuses to submit while the preflight blocks", async () => {
    const release = await createRelease(mia, artistId, details({ title: "Blocked" }), TODAY);
    const error = await submitRelease((await findRelease(release.id))!, mia, { area: "member", memberId: mia.id }, TODAY).catch((e) => e);
    expect(error).toBeInstanceOf(ReleaseStatusError);
    expect(error.problems.length).toBeGreaterThan(0);
    expect((await findRelease(release.id))!.status).toBe("draft");
  });

  it("submit assigns codes; approve, distribute, takedown; each with history and a live notification to the owner", async () => {
    const release = await completeRelease("Full Life");
    const submitted = await submitRelease(release, mia, { area: "member", memberId: mia.id }, TODAY);
    expect(submitted.status).toBe("pending_approval");
    expect(upcProblem(submitted.upc!)).toBeNull();
    const tracks = (await findRelease(release.id))!.tracks;
    expect(tracks.every((t) => /^USBL126\d{5}$/.test(t.isrc ?? ""))).toBe(true);

    const pending = (await findRelease(release.id))!;
    await expect(approveRelease(pending, mia)).rejects.toMatchObject({ status: 403 });
    await approveRelease(pending, admin);
    // A second approval of the same (stale) release matches no row.
    await expect(approveRelease(pending, admin)).rejects.toBeInstanceOf(ReleaseStatusError);
    await startDistribution((await findRelease(release.id))!, admin);
    await requestTakedown((await findRelease(release.id))!, mia, "owner", "The label asked for it.");
    await markTakenDown((await findRelease(release.id))!, admin);

    const history = await db().select().from(releaseStatusHistory).where(eq(releaseStatusHistory.releaseId, release.id)).orderBy(releaseStatusHistory.id);
    expect(history.map((h) => h.toStatus)).toEqual(["draft", "pending_approval", "approved", "in_distribution", "takedown_requested", "taken_down"]);
    expect(history[4]!.reason).toBe("The label asked for it.");
    const sent = await db().select().from(notifications).where(eq(notifications.userId, mia.id));
    const mine = sent.filter((n) => n.data.resource_id === release.id);
    expect(mine).toHaveLength(5);
    expect(mine.every((n) => n.data.route_name === "member-release-profile")).toBe(true);
  });

  it("rejects with reasons per field, and the owner can resubmit", async () => {
    const release = await completeRelease("Needs Work");
    await submitRelease(release, mia, { area: "member", memberId: mia.id }, TODAY);
    const reasons = RejectSchema.parse({ reasons: { cover: "The cover has a URL on it.", title: "" } });
    expect(reasons).toEqual([{ field: "cover", message: "The cover has a URL on it." }]);
    expect(RejectSchema.safeParse({ reasons: {} }).success).toBe(false);
    const rejected = await rejectRelease((await findRelease(release.id))!, admin, reasons);
    expect(rejected.status).toBe("rejected");
    expect(rejected.rejectionReasons).toEqual(reasons);
    const again = (await findRelease(release.id, TODAY))!;
    await updateReleaseDetails(
      again,
      details({ title: "Needs Work", type: "single", slug: again.slug, primaryGenreId: again.primaryGenreId, languageId: again.languageId }),
      TODAY,
    );
    const resubmitted = await submitRelease((await findRelease(release.id, TODAY))!, mia, { area: "member", memberId: mia.id }, TODAY);
    expect(resubmitted.status).toBe("pending_approval");
    expect(resubmitted.rejectionReasons).toBeNull();
  });
});

describe("lists", () => {
  it("pages, searches and filters in one statement; a stranger sees none", async () => {
    const { result, count } = await countQueries(() => listMemberReleasePage(mia.id, parseReleaseListQuery(new URLSearchParams("q=late"))));
    expect(count).toBe(1);
    expect(result.rows.map((r) => r.title)).toEqual(["Late Trains"]);
    const drafts = await listMemberReleasePage(bandEditor.id, parseReleaseListQuery(new URLSearchParams("status=draft")));
    expect(drafts.rows.length).toBeGreaterThan(0);
    expect(drafts.rows.every((r) => r.status === "draft")).toBe(true);
    expect((await listMemberReleasePage(stranger.id, parseReleaseListQuery(new URLSearchParams()))).total).toBe(0);
    const all = await listAllReleases(parseReleaseListQuery(new URLSearchParams("q=196589000026")));
    expect(all.rows.map((r) => r.title)).toEqual(["Northbound"]);
    expect(parseReleaseListQuery(new URLSearchParams("page=-3&status=bogus"))).toEqual({ q: "", status: null, page: 1 });
  });
});
