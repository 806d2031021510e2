import { and, asc, eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import {
  artistMembers,
  profileRates,
  profileReferenceValues,
  profiles,
  referenceValues,
  type Profile,
  type ProfileType,
  type ReferenceKind,
  type User,
} from "~/db/schema";
import { imageKey, ImageUploadError } from "~/modules/images/images.server";
import { storage } from "~/modules/storage/storage.server";
import { seedReferenceData } from "~/modules/reference/reference-seed.server";
import { createUser } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { requireEditableProfile } from "./profile-access.server";
import {
  createProfile,
  ProfileEditError,
  removeArtistAvatar,
  removeHeroImage,
  setArtistAvatar,
  setHeroImage,
  updateProfileDetails,
} from "./profile-editor.server";
import type { ProfileDetailsInput } from "./profile-schemas";
import { heroImage } from "./profile-details.server";
import { invalidateReferenceOptions } from "~/modules/reference/reference-options.server";

useTestDatabase();

beforeAll(async () => {
  await seedReferenceData(db());
});

let sequence = 0;
const uniqueUsername = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++sequence}`;

const member = () => createUser();
const admin = () => createUser({ acctType: 2, roleId: 2 });

async function valueId(kind: ReferenceKind, name: string): Promise<number> {
  const [row] = await db()
    .select({ id: referenceValues.id })
    .from(referenceValues)
    .where(and(eq(referenceValues.kind, kind), eq(referenceValues.name, name)));
  if (!row) throw new Error(`No ${kind} ${name}`);
  return row.id;
}

/** What a thrown promise threw (the test fails when it resolves). */
async function refusal(promise: Promise<unknown>): Promise<unknown> {
  const outcome = await promise.then(
    () => ({ resolved: true as const }),
    (error: unknown) => ({ resolved: false as const, error }),
  );
  expect(outcome.resolved, "expected a refusal").toBe(false);
  return outcome.resolved ? undefined : outcome.error;
}

async function editError(promise: Promise<unknown>): Promise<ProfileEditError> {
  const error = await refusal(promise);
  expect(error).toBeInstanceOf(ProfileEditError);
  return error as ProfileEditError;
}

async function expectNotFound(promise: Promise<unknown>) {
  const error = (await refusal(promise)) as { init?: { status?: number } };
  expect(error?.init?.status).toBe(404);
}

function details(profile: Profile, overrides: Partial<ProfileDetailsInput> = {}): ProfileDetailsInput {
  return {
    name: profile.name,
    username: profile.username,
    bio: "",
    location: "",
    links: [],
    values: {},
    ...(profile.type === "artist" ? {} : { rates: [], credits: [], sampleLinks: [] }),
    ...overrides,
  };
}

async function newProfile(owner: User, type: ProfileType, name = "Someone") {
  return createProfile(owner, owner.id, type, { name, username: uniqueUsername(type.replace("_", "-")) });
}

describe("createProfile", () => {
  it("creates a draft provider profile for the member", async () => {
    const owner = await member();
    const profile = await createProfile(owner, owner.id, "musician", { name: "Ada Strings", username: uniqueUsername("ada") });
    expect(profile).toMatchObject({ type: "musician", ownerId: owner.id, name: "Ada Strings", status: "draft", heroImg: null });
    const band = await db().select().from(artistMembers).where(eq(artistMembers.artistId, profile.id));
    expect(band).toEqual([]);
  });

  it("allows one provider profile of each type per member, with a clear message", async () => {
    const owner = await member();
    await newProfile(owner, "studio");
    const error = await editError(newProfile(owner, "studio"));
    expect(error.errors.form).toEqual(["This member already has a studio profile: each member can have one of each kind."]);
    // Other provider types are still open.
    for (const type of ["musician", "audio_engineer", "music_producer"] as const) {
      await expect(newProfile(owner, type)).resolves.toMatchObject({ type, ownerId: owner.id });
    }
    const rows = await db().select().from(profiles).where(eq(profiles.ownerId, owner.id));
    expect(rows).toHaveLength(4);
  });

  it("creates any number of artists, each with its owner's band row (owner, can edit)", async () => {
    const owner = await member();
    const first = await newProfile(owner, "artist", "First Band");
    const second = await newProfile(owner, "artist", "Second Band");
    const band = await db()
      .select()
      .from(artistMembers)
      .where(inArray(artistMembers.artistId, [first.id, second.id]))
      .orderBy(asc(artistMembers.artistId));
    expect(band.map(({ artistId, userId, role, canEdit }) => ({ artistId, userId, role, canEdit }))).toEqual([
      { artistId: first.id, userId: owner.id, role: "owner", canEdit: true },
      { artistId: second.id, userId: owner.id, role: "owner", canEdit: true },
    ]);
  });

  it("refuses a username taken by a profile of the same type, whatever the case, and allows it for another type", async () => {
    const username = uniqueUsername("taken");
    const first = await member();
    await createProfile(first, first.id, "musician", { name: "One", username });
    const second = await member();
    const error = await editError(createProfile(second, second.id, "musician", { name: "Two", username }));
    expect(error.errors.fields).toEqual({ username: ["That username is taken."] });
    // A stored username in another case counts too (the index is on lower(username)).
    const mixed = uniqueUsername("mixed");
    await db().insert(profiles).values({ type: "studio", ownerId: first.id, name: "Mixed", username: mixed.toUpperCase() });
    expect((await editError(createProfile(second, second.id, "studio", { name: "Mine", username: mixed }))).errors.fields).toEqual({
      username: ["That username is taken."],
    });
    await expect(createProfile(second, second.id, "audio_engineer", { name: "Two", username })).resolves.toMatchObject({ username });
    await expect(createProfile(second, second.id, "artist", { name: "Two", username })).resolves.toMatchObject({ username });
  });

  it("maps the unique indexes to the same messages when two requests race past the checks", async () => {
    const owner = await member();
    const other = await member();
    const username = uniqueUsername("race");
    const sameName = await Promise.allSettled([
      createProfile(owner, owner.id, "musician", { name: "A", username }),
      createProfile(other, other.id, "musician", { name: "B", username }),
    ]);
    const refusedName = sameName.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason);
    expect(refusedName).toHaveLength(1);
    expect(refusedName[0]).toBeInstanceOf(ProfileEditError);
    expect((refusedName[0] as ProfileEditError).errors.fields).toEqual({ username: ["That username is taken."] });

    const sameType = await Promise.allSettled([
      createProfile(other, other.id, "studio", { name: "S1", username: uniqueUsername("s1") }),
      createProfile(other, other.id, "studio", { name: "S2", username: uniqueUsername("s2") }),
    ]);
    const refusedType = sameType.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason);
    expect(refusedType).toHaveLength(1);
    expect((refusedType[0] as ProfileEditError).errors.form).toEqual(["This member already has a studio profile: each member can have one of each kind."]);
  });

  it("lets an admin create for a member, and nobody else", async () => {
    const owner = await member();
    const profile = await createProfile(await admin(), owner.id, "music_producer", { name: "By admin", username: uniqueUsername("byadmin") });
    expect(profile.ownerId).toBe(owner.id);
    const stranger = await member();
    await expectNotFound(createProfile(stranger, owner.id, "artist", { name: "Not mine", username: uniqueUsername("nope") }));
  });
});

describe("updateProfileDetails", () => {
  it("replaces values, rates, credits and links in one go and keeps a published profile published", async () => {
    const owner = await member();
    const profile = await newProfile(owner, "music_producer");
    await db().update(profiles).set({ status: "published", publishedAt: new Date() }).where(eq(profiles.id, profile.id));
    const [pop, rock, mixing, piano] = await Promise.all([
      valueId("genre", "Pop"),
      valueId("genre", "Rock"),
      valueId("skill", "Mixing"),
      valueId("instrument", "Piano"),
    ]);
    const first = await updateProfileDetails(
      owner,
      profile,
      details(profile, {
        name: "Night Owl Productions",
        bio: "Producer from Leeds.",
        location: "Leeds, United Kingdom",
        links: [{ label: "Site", url: "https://example.com" }],
        values: { genre: [pop, rock], skill: [mixing], instrument: [piano] },
        rates: [
          { label: "Mixing", amount: 15050, unit: "per_song" },
          { label: "Day rate", amount: 60000, unit: "per_day" },
        ],
        credits: [{ title: "Night Drive", role: "Producer", year: 2021 }],
        sampleLinks: [{ label: "Reel", url: "https://example.com/reel" }],
      }),
    );
    expect(first).toMatchObject({
      name: "Night Owl Productions",
      status: "published",
      credits: [{ title: "Night Drive", role: "Producer", year: 2021 }],
      sampleLinks: [{ label: "Reel", url: "https://example.com/reel" }],
      links: [{ label: "Site", url: "https://example.com" }],
    });
    expect(first.updatedAt.getTime()).toBeGreaterThanOrEqual(profile.updatedAt.getTime());

    // A second save replaces everything (rows in the new order, values swapped).
    await updateProfileDetails(owner, first, details(first, { values: { genre: [rock] }, rates: [{ label: "Master", amount: 5000, unit: "per_song" }] }));
    const rates = await db().select().from(profileRates).where(eq(profileRates.profileId, profile.id));
    expect(rates.map(({ label, amountCents, currency, unit, position }) => ({ label, amountCents, currency, unit, position }))).toEqual([
      { label: "Master", amountCents: 5000, currency: "USD", unit: "per_song", position: 0 },
    ]);
    const values = await db().select().from(profileReferenceValues).where(eq(profileReferenceValues.profileId, profile.id));
    expect(values.map((v) => v.valueId)).toEqual([rock]);
  });

  it("keeps a retired value the profile carries, but refuses to add one", async () => {
    const owner = await member();
    const profile = await newProfile(owner, "musician");
    const [retiredKept, retiredNew] = await db()
      .insert(referenceValues)
      .values([
        { kind: "genre", name: `Retired kept ${sequence++}` },
        { kind: "genre", name: `Retired new ${sequence++}` },
      ])
      .returning();
    await updateProfileDetails(owner, profile, details(profile, { values: { genre: [retiredKept!.id] } }));
    await db()
      .update(referenceValues)
      .set({ retiredAt: new Date() })
      .where(inArray(referenceValues.id, [retiredKept!.id, retiredNew!.id]));
    invalidateReferenceOptions();

    await expect(updateProfileDetails(owner, profile, details(profile, { values: { genre: [retiredKept!.id] } }))).resolves.toBeTruthy();
    const error = await editError(updateProfileDetails(owner, profile, details(profile, { values: { genre: [retiredKept!.id, retiredNew!.id] } })));
    expect(error.errors.fields).toEqual({ values_genre: [`${retiredNew!.name} is no longer offered; please choose another.`] });
    const values = await db().select().from(profileReferenceValues).where(eq(profileReferenceValues.profileId, profile.id));
    expect(values.map((v) => v.valueId)).toEqual([retiredKept!.id]);
  });

  it("refuses values of a kind the field or the type does not carry, and unknown ids", async () => {
    const owner = await member();
    const artist = await newProfile(owner, "artist");
    const mixing = await valueId("skill", "Mixing");
    const pop = await valueId("genre", "Pop");
    // A skill id sent as a genre.
    const asGenre = await editError(updateProfileDetails(owner, artist, details(artist, { values: { genre: [mixing] } })));
    expect(asGenre.errors.fields).toEqual({ values_genre: ["Choose genres from the list."] });
    // Artists carry genres only: a skills list is ignored, not saved.
    await updateProfileDetails(owner, artist, details(artist, { values: { genre: [pop], skill: [mixing] } }));
    const saved = await db().select().from(profileReferenceValues).where(eq(profileReferenceValues.profileId, artist.id));
    expect(saved.map((v) => v.valueId)).toEqual([pop]);
    // Audio engineers carry no instruments or languages.
    const engineer = await newProfile(owner, "audio_engineer");
    const english = await valueId("language", "English");
    await updateProfileDetails(owner, engineer, details(engineer, { values: { language: [english], skill: [mixing] } }));
    const engineerValues = await db().select().from(profileReferenceValues).where(eq(profileReferenceValues.profileId, engineer.id));
    expect(engineerValues.map((v) => v.valueId)).toEqual([mixing]);
    // An id that does not exist.
    const unknown = await editError(updateProfileDetails(owner, engineer, details(engineer, { values: { skill: [2_000_000_000] } })));
    expect(unknown.errors.fields).toEqual({ values_skill: ["Choose skills from the list."] });
  });

  it("refuses a username another profile of the type holds, and accepts a change of case of its own", async () => {
    const owner = await member();
    const profile = await newProfile(owner, "audio_engineer");
    const other = await newProfile(await member(), "audio_engineer");
    const error = await editError(updateProfileDetails(owner, profile, details(profile, { username: other.username })));
    expect(error.errors.fields).toEqual({ username: ["That username is taken."] });
    const renamed = uniqueUsername("renamed");
    await expect(updateProfileDetails(owner, profile, details(profile, { username: renamed }))).resolves.toMatchObject({ username: renamed });
  });

  it("lets the owner, an admin and a band member with rights edit; anyone else gets 404", async () => {
    const owner = await member();
    const artist = await newProfile(owner, "artist", "The Editors");
    const withRights = await member();
    const withoutRights = await member();
    await db()
      .insert(artistMembers)
      .values([
        { artistId: artist.id, userId: withRights.id, role: "member", canEdit: true },
        { artistId: artist.id, userId: withoutRights.id, role: "member", canEdit: false },
      ]);

    await expect(updateProfileDetails(withRights, artist, details(artist, { bio: "By the editor" }))).resolves.toMatchObject({ bio: "By the editor" });
    await expect(updateProfileDetails(await admin(), artist, details(artist, { bio: "By the admin" }))).resolves.toMatchObject({ bio: "By the admin" });
    await expectNotFound(updateProfileDetails(withoutRights, artist, details(artist, { bio: "Nope" })));
    await expectNotFound(updateProfileDetails(await member(), artist, details(artist, { bio: "Nope" })));

    await expect(requireEditableProfile(withRights, "artist", String(artist.id))).resolves.toMatchObject({ rights: "editor" });
    await expectNotFound(requireEditableProfile(withoutRights, "artist", String(artist.id)));
    // The id of a profile of another type is not found either.
    await expectNotFound(requireEditableProfile(owner, "musician", String(artist.id)));

    // Band rights never reach provider profiles.
    const musician = await newProfile(owner, "musician");
    await expectNotFound(updateProfileDetails(withRights, musician, details(musician)));
  });
});

async function picture(width: number, height: number) {
  const bytes = await sharp({ create: { width, height, channels: 3, background: { r: 30, g: 90, b: 160 } } })
    .png()
    .toBuffer();
  return new File([new Uint8Array(bytes)], "picture.png", { type: "image/png" });
}

const keyOf = (publicPath: string | null) => (publicPath ? imageKey(publicPath) : null);
const exists = async (publicPath: string | null) => {
  const key = keyOf(publicPath);
  return key !== null && (await storage().exists(key));
};
async function storedBytes(publicPath: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage().read(keyOf(publicPath)!)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("hero image and artist avatar", () => {
  it("stores the hero under the profile's id, replaces and removes it with its files", async () => {
    const owner = await member();
    const profile = await newProfile(owner, "studio");
    const key = await setHeroImage(profile, await picture(1600, 900));
    const [stored] = await db().select().from(profiles).where(eq(profiles.id, profile.id));
    expect(stored!.heroImg).toBe(key);
    const first = heroImage(stored!)!;
    expect(first.src).toBe(`/storage/images/hero/${profile.id}-${key}/728x410.webp`);
    expect(await exists(first.src)).toBe(true);
    expect((await sharp(await storedBytes(first.src)).metadata()).width).toBe(728);

    const second = await setHeroImage(profile, await picture(800, 600));
    expect(second).not.toBe(key);
    expect(await exists(first.src)).toBe(false);
    const [after] = await db().select().from(profiles).where(eq(profiles.id, profile.id));
    const secondSrc = heroImage(after!)!.src;
    expect(await exists(secondSrc)).toBe(true);

    await removeHeroImage(profile);
    const [cleared] = await db().select().from(profiles).where(eq(profiles.id, profile.id));
    expect(cleared!.heroImg).toBeNull();
    expect(await exists(secondSrc)).toBe(false);
    expect(await storage().list(keyOf(secondSrc)!.replace(/[^/]+$/, ""))).toEqual([]);
  });

  it("refuses a file that is not an image or too small, and keeps the current hero", async () => {
    const profile = await newProfile(await member(), "musician");
    const key = await setHeroImage(profile, await picture(800, 450));
    const text = new File(["not an image at all"], "fake.png", { type: "image/png" });
    expect(await refusal(setHeroImage(profile, text))).toBeInstanceOf(ImageUploadError);
    const tiny = await refusal(setHeroImage(profile, await picture(20, 20)));
    expect(tiny).toBeInstanceOf(ImageUploadError);
    expect((tiny as ImageUploadError).reason).toBe("tooSmall");
    const [row] = await db().select().from(profiles).where(eq(profiles.id, profile.id));
    expect(row!.heroImg).toBe(key);
  });

  it("stores an artist's avatar as its 256x256 path and removes the old files", async () => {
    const profile = await newProfile(await member(), "artist");
    const first = await setArtistAvatar(profile, await picture(300, 300));
    expect(first).toMatch(/^\/storage\/images\/avatar\/[0-9a-f]{32}\/256x256\.webp$/);
    const [row] = await db().select().from(profiles).where(eq(profiles.id, profile.id));
    expect(row!.avatarImg).toBe(first);
    const second = await setArtistAvatar(profile, await picture(300, 300));
    expect(await exists(first)).toBe(false);
    expect(await exists(second)).toBe(true);
    await removeArtistAvatar(profile);
    const [cleared] = await db().select().from(profiles).where(eq(profiles.id, profile.id));
    expect(cleared!.avatarImg).toBeNull();
    expect(await exists(second)).toBe(false);
  });
});
