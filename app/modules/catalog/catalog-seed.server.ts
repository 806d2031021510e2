import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import {
  profiles,
  referenceValues,
  releaseStatusHistory,
  releaseTracks,
  releases,
  songCredits,
  songWriters,
  songs,
  users,
  type ReleaseStatus,
  type ReleaseType,
} from "~/db/schema";
import { writerSharesProblem } from "./catalog.server";
import { seedDemoAudio } from "./demo-audio.server";

/**
 * The demo catalogue of docs/demo-data.md ("Catalogue"), exactly as written there, on the artist page
 * `midnight-owls` (seeded by the profile seed): Late Trains (EP) and Northbound (Single) in distribution,
 * and the Winter Platforms album, a draft of 7 tracks of which two have no audio yet.
 *
 * Files: no cover art is stored. The demo songs carry the properties of their audio (WAV, 24-bit, 48 kHz, stereo,
 * and the track's duration) and a real short file in them, generated at seed time (demo-audio.server.ts); the two
 * Winter Platforms tracks without audio have no audio properties (and no duration) and no file at all. Splits are seeded by split-seed.server.ts; money is not seeded.
 */

export const DEMO_ARTIST_USERNAME = "midnight-owls";
const MIA = "member@example.com";
const PAUL = "producer@example.com";
const ADMIN = "admin@example.com";

interface DemoWriter {
  name: string;
  /** The member this writer is, linked when the account exists. */
  email?: string;
  shareBps: number;
  proCode?: string;
  ipi?: string;
}

const mia = (shareBps: number): DemoWriter => ({ name: "Mia Member", email: MIA, shareBps, proCode: "BMI", ipi: "00523419871" });
const paul = (shareBps: number): DemoWriter => ({ name: "Paul Producer", email: PAUL, shareBps, proCode: "ASCAP", ipi: "00611887234" });

interface DemoSong {
  title: string;
  isrc: string | null;
  iswc: string | null;
  /** Null: no audio yet (no properties, no duration). */
  durationSeconds: number | null;
  writers: DemoWriter[];
  lyrics?: string;
  cover?: { provider: string; licenceId: string; originalWriters: string };
  /** Paul Producer's verified producer credit. */
  producedByPaul?: { invitedAt: string; acceptedAt: string };
}

interface DemoRelease {
  title: string;
  slug: string;
  type: ReleaseType;
  upc: string | null;
  releaseDate: string;
  status: ReleaseStatus;
  year: number;
  stores: string[];
  /** Status changes, oldest first; the first is the creation (from null, by Mia). */
  history: Array<{ at: string; to: ReleaseStatus; by: "mia" | "admin"; reason: string | null }>;
  songs: DemoSong[];
}

const STORES = ["spotify", "apple_music", "amazon_music", "youtube_music", "deezer", "tidal", "tiktok", "pandora"];

const DEMO_RELEASES: DemoRelease[] = [
  {
    title: "Late Trains",
    slug: "late-trains",
    type: "ep",
    upc: "196589000019",
    releaseDate: "2026-03-06",
    status: "in_distribution",
    year: 2026,
    stores: STORES,
    history: [
      { at: "2026-01-12T10:00:00Z", to: "draft", by: "mia", reason: null },
      { at: "2026-01-20T18:30:00Z", to: "pending_approval", by: "mia", reason: null },
      { at: "2026-01-22T09:15:00Z", to: "approved", by: "admin", reason: "Metadata, audio and art meet the store rules." },
      { at: "2026-01-22T09:20:00Z", to: "in_distribution", by: "admin", reason: "Delivery package sent to the stores." },
    ],
    songs: [
      {
        title: "Late Trains",
        isrc: "USBL12600001",
        iswc: "T-345.246.800-3",
        durationSeconds: 214,
        writers: [mia(5000), paul(5000)],
        lyrics: "The last train leaves at a quarter past one\nI count the windows till the lights are gone",
        producedByPaul: { invitedAt: "2026-01-13T11:00:00Z", acceptedAt: "2026-01-14T08:40:00Z" },
      },
      { title: "Early Mornings", isrc: "USBL12600002", iswc: "T-345.246.801-4", durationSeconds: 198, writers: [mia(10_000)] },
      { title: "Platform Nine", isrc: "USBL12600003", iswc: "T-345.246.802-5", durationSeconds: 241, writers: [mia(10_000)] },
      {
        title: "Nashville Rain",
        isrc: "USBL12600004",
        iswc: null,
        durationSeconds: 187,
        // A cover: the writers are the original song's, credited as the licence records them.
        writers: [
          { name: "Loretta Vance", shareBps: 5000 },
          { name: "Hal Brennan", shareBps: 5000 },
        ],
        cover: { provider: "Harry Fox Agency (Songfile)", licenceId: "SF-2026-0419873", originalWriters: "Loretta Vance, Hal Brennan" },
      },
    ],
  },
  {
    title: "Northbound",
    slug: "northbound",
    type: "single",
    upc: "196589000026",
    releaseDate: "2026-06-12",
    status: "in_distribution",
    year: 2026,
    stores: STORES,
    history: [
      { at: "2026-04-27T16:00:00Z", to: "draft", by: "mia", reason: null },
      { at: "2026-05-04T12:10:00Z", to: "pending_approval", by: "mia", reason: null },
      { at: "2026-05-06T10:05:00Z", to: "approved", by: "admin", reason: "Metadata, audio and art meet the store rules." },
      { at: "2026-05-06T10:10:00Z", to: "in_distribution", by: "admin", reason: "Delivery package sent to the stores." },
    ],
    songs: [
      {
        title: "Northbound",
        isrc: "USBL12600005",
        iswc: "T-345.246.803-6",
        durationSeconds: 226,
        writers: [mia(7000), paul(3000)],
        producedByPaul: { invitedAt: "2026-04-28T09:00:00Z", acceptedAt: "2026-04-29T14:25:00Z" },
      },
    ],
  },
  {
    title: "Winter Platforms",
    slug: "winter-platforms",
    type: "album",
    upc: null,
    releaseDate: "2027-02-05",
    status: "draft",
    year: 2027,
    stores: STORES,
    history: [{ at: "2026-10-19T20:00:00Z", to: "draft", by: "mia", reason: null }],
    // No ISRCs yet: they are assigned from the platform's range when the release is submitted.
    songs: [
      { title: "Winter Platforms", isrc: null, iswc: null, durationSeconds: 251, writers: [mia(10_000)] },
      { title: "Frost on the Timetable", isrc: null, iswc: null, durationSeconds: 223, writers: [mia(10_000)] },
      { title: "Signal Lamps", isrc: null, iswc: null, durationSeconds: 198, writers: [mia(10_000)] },
      { title: "Snowbound", isrc: null, iswc: null, durationSeconds: 267, writers: [mia(10_000)] },
      { title: "Union Station Waltz", isrc: null, iswc: null, durationSeconds: 236, writers: [mia(10_000)] },
      // Incomplete on purpose: these two have no audio yet.
      { title: "Last Departure", isrc: null, iswc: null, durationSeconds: null, writers: [mia(10_000)] },
      { title: "Morning Freight", isrc: null, iswc: null, durationSeconds: null, writers: [mia(10_000)] },
    ],
  },
];

/** The properties of the demo songs' (unstored) audio files. */
const DEMO_AUDIO = { audioFormat: "wav", audioBitDepth: 24, audioSampleRate: 48_000, audioChannels: 2 } as const;

const CREDIT_LINK_DAYS = 7;

/**
 * Idempotent, like the profile seed: a demo release whose slug is taken on the artist page is left alone,
 * except that its songs with an ISRC and their track links are re-inserted when missing (with their writers
 * and credits). Members named in the catalogue (Mia, Paul) are linked to their writer rows and credits when
 * their accounts exist, at this run or a later one.
 */
export async function seedDemoCatalog(tx: Db): Promise<void> {
  const people = await tx
    .select({ id: users.id, email: sql<string>`lower(${users.email})` })
    .from(users)
    .where(inArray(sql`lower(${users.email})`, [MIA, PAUL, ADMIN]));
  const userId = (email: string) => people.find((p) => p.email === email)?.id ?? null;
  const miaId = userId(MIA);
  if (miaId == null) return;
  const [artist] = await tx
    .select({ id: profiles.id, name: profiles.name })
    .from(profiles)
    .where(and(eq(profiles.type, "artist"), eq(sql`lower(${profiles.username})`, DEMO_ARTIST_USERNAME)))
    .limit(1);
  if (!artist) return;

  const refs = await tx
    .select({ id: referenceValues.id, kind: referenceValues.kind, name: referenceValues.name, code: referenceValues.code })
    .from(referenceValues)
    .where(
      or(
        and(eq(referenceValues.kind, "genre"), inArray(referenceValues.name, ["Indie", "Folk"])),
        and(eq(referenceValues.kind, "language"), eq(referenceValues.name, "English")),
        and(eq(referenceValues.kind, "pro"), inArray(referenceValues.code, ["BMI", "ASCAP"])),
      ),
    );
  const ref = (kind: string, name: string) => refs.find((r) => r.kind === kind && (r.name === name || r.code === name))?.id ?? null;
  const english = ref("language", "English");

  for (const demo of DEMO_RELEASES) {
    for (const song of demo.songs) {
      const problem = writerSharesProblem(song.writers.map((w) => w.shareBps));
      if (problem) throw new Error(`Demo song ${song.title}: ${problem}`);
    }
    const actor = (by: "mia" | "admin") => (by === "mia" ? miaId : userId(ADMIN));
    const created = demo.history[0]!;
    const last = demo.history.at(-1)!;
    const submitted = demo.history.find((h) => h.to === "pending_approval");
    const reviewed = demo.history.find((h) => h.to === "approved" || h.to === "rejected");
    const [inserted] = await tx
      .insert(releases)
      .values({
        artistId: artist.id,
        title: demo.title,
        slug: demo.slug,
        type: demo.type,
        upc: demo.upc,
        label: "Owl Light Records",
        pLine: `℗ ${demo.year} ${artist.name}`,
        cLine: `© ${demo.year} ${artist.name}`,
        primaryGenreId: ref("genre", "Indie"),
        secondaryGenreId: ref("genre", "Folk"),
        languageId: english,
        releaseDate: demo.releaseDate,
        previouslyReleased: false,
        parentalAdvisory: false,
        // No cover art file is seeded.
        coverArtPath: null,
        stores: demo.stores,
        territories: ["WW"],
        status: demo.status,
        submittedAt: submitted ? new Date(submitted.at) : null,
        reviewedAt: reviewed ? new Date(reviewed.at) : null,
        reviewedBy: reviewed ? actor(reviewed.by) : null,
        createdBy: miaId,
        createdAt: new Date(created.at),
        updatedAt: new Date(last.at),
      })
      .onConflictDoNothing()
      .returning({ id: releases.id });
    let releaseId = inserted?.id;
    if (releaseId == null) {
      const [existingRelease] = await tx
        .select({ id: releases.id })
        .from(releases)
        .where(and(eq(releases.artistId, artist.id), eq(sql`lower(${releases.slug})`, demo.slug)))
        .limit(1);
      // The UPC is someone else's: leave it to the administrator.
      if (!existingRelease) continue;
      releaseId = existingRelease.id;
    } else {
      await tx.insert(releaseStatusHistory).values(
        demo.history.map((h, i) => ({
          releaseId: releaseId!,
          fromStatus: i === 0 ? null : demo.history[i - 1]!.to,
          toStatus: h.to,
          actorId: actor(h.by),
          reason: h.reason,
          createdAt: new Date(h.at),
        })),
      );
    }

    // Songs: reuse the artist's own (by ISRC, or by title for those without one yet); insert the others,
    // all of them with a new release, only those with an ISRC otherwise.
    const key = (s: { isrc: string | null; title: string }) => s.isrc ?? `title:${s.title.toLowerCase()}`;
    const isrcs = demo.songs.flatMap((s) => (s.isrc ? [s.isrc] : []));
    const untitled = demo.songs.flatMap((s) => (s.isrc ? [] : [s.title.toLowerCase()]));
    const existing = await tx
      .select({ id: songs.id, isrc: songs.isrc, title: songs.title })
      .from(songs)
      .where(
        and(
          eq(songs.artistId, artist.id),
          or(
            isrcs.length ? inArray(songs.isrc, isrcs) : undefined,
            untitled.length ? and(isNull(songs.isrc), inArray(sql`lower(${songs.title})`, untitled)) : undefined,
          ),
        ),
      );
    const songIds = new Map<string, number>();
    for (const s of existing) if (!songIds.has(key(s))) songIds.set(key(s), s.id);
    const missing = demo.songs.filter((s) => !songIds.has(key(s)) && (inserted || s.isrc));
    const createdSongs = missing.length
      ? await tx
          .insert(songs)
          .values(
            missing.map((s) => ({
              artistId: artist.id,
              title: s.title,
              isrc: s.isrc,
              iswc: s.iswc,
              durationSeconds: s.durationSeconds,
              explicit: false,
              languageId: english,
              lyrics: s.lyrics ?? "",
              isCover: Boolean(s.cover),
              coverLicenceProvider: s.cover?.provider ?? null,
              coverLicenceId: s.cover?.licenceId ?? null,
              coverOriginalWriters: s.cover?.originalWriters ?? null,
              // Audio properties; the file is stored after (seedDemoAudio). None at all for a track without audio.
              audioPath: null,
              ...(s.durationSeconds == null ? {} : DEMO_AUDIO),
              createdBy: miaId,
              createdAt: new Date(created.at),
              updatedAt: new Date(created.at),
            })),
          )
          // An ISRC someone else holds: that song is left out.
          .onConflictDoNothing()
          .returning({ id: songs.id, isrc: songs.isrc, title: songs.title })
      : [];
    for (const s of createdSongs) songIds.set(key(s), s.id);

    const newSongs = missing.filter((s) => createdSongs.some((c) => key(c) === key(s)));
    const writerRows = newSongs.flatMap((s) =>
      s.writers.map((w, position) => ({
        songId: songIds.get(key(s))!,
        name: w.name,
        userId: w.email ? userId(w.email) : null,
        shareBps: w.shareBps,
        proId: w.proCode ? ref("pro", w.proCode) : null,
        ipi: w.ipi ?? null,
        position,
      })),
    );
    if (writerRows.length) await tx.insert(songWriters).values(writerRows);
    const creditRows = newSongs
      .filter((s) => s.producedByPaul)
      .map((s) => {
        const { invitedAt, acceptedAt } = s.producedByPaul!;
        return {
          songId: songIds.get(key(s))!,
          role: "producer" as const,
          email: PAUL,
          userId: userId(PAUL),
          status: "accepted" as const,
          invitedBy: miaId,
          expiresAt: new Date(Date.parse(invitedAt) + CREDIT_LINK_DAYS * 86_400_000),
          respondedAt: new Date(acceptedAt),
          verifiedAt: new Date(acceptedAt),
          createdAt: new Date(invitedAt),
          updatedAt: new Date(acceptedAt),
        };
      });
    if (creditRows.length) await tx.insert(songCredits).values(creditRows).onConflictDoNothing();

    const trackRows = demo.songs.flatMap((s, i) => {
      const songId = songIds.get(key(s));
      return songId == null ? [] : [{ releaseId: releaseId!, songId, position: i + 1 }];
    });
    if (trackRows.length) await tx.insert(releaseTracks).values(trackRows).onConflictDoNothing();
  }

  await linkDemoMembers(tx, artist.id, userId);
  await seedDemoAudio(tx, artist.id);
}

/** Writer rows (by IPI) and credits (by email) of the demo artist's songs that name a member who now has an account. */
async function linkDemoMembers(tx: Db, artistId: number, userId: (email: string) => number | null): Promise<void> {
  const artistSongs = tx.select({ id: songs.id }).from(songs).where(eq(songs.artistId, artistId));
  for (const writer of [mia(0), paul(0)]) {
    const id = userId(writer.email!);
    if (id == null) continue;
    await tx
      .update(songWriters)
      .set({ userId: id })
      .where(and(isNull(songWriters.userId), eq(songWriters.ipi, writer.ipi!), inArray(songWriters.songId, artistSongs)));
  }
  const paulId = userId(PAUL);
  if (paulId != null) {
    await tx
      .update(songCredits)
      .set({ userId: paulId })
      .where(and(isNull(songCredits.userId), eq(sql`lower(${songCredits.email})`, PAUL), inArray(songCredits.songId, artistSongs)));
  }
}
