/** Accounts and data for tests/e2e/community/directory.spec.ts, created by prepare.ts before the server starts. */
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { db } from "../../../app/db/client.server";
import { artistMembers, profiles, referenceValues, type ReferenceKind } from "../../../app/db/schema";
import { storeImage } from "../../../app/modules/images/images.server";
import { insertProfiles, type BulkProfile } from "../../../app/modules/profiles/directory-seed.server";
import { createReadyMembers } from "./community-members.server";
import {
  DIRECTORY_ACCOUNTS,
  DIRECTORY_PASSWORD,
  DIRECTORY_TYPES,
  directoryProfile,
  DJ_SKILL_NAME,
  OTHER_LOCATION,
  OTHER_RATE_CENTS,
  PAGED_COUNT,
  pagedMusician,
  SONGWRITER_SKILL_NAME,
  TARGET_GENRES,
  TARGET_LOCATION,
  TARGET_RATE_CENTS,
  TARGET_X_HANDLE,
  type DirectoryType,
} from "./directory-accounts";

/** A real PNG, stored the way an upload is, so the public page has a header image to show. */
async function heroFor(profileId: number): Promise<string> {
  const png = await sharp({ create: { width: 800, height: 450, channels: 3, background: { r: 20, g: 83, b: 45 } } })
    .png()
    .toBuffer();
  const stored = await storeImage("hero", new Blob([new Uint8Array(png)], { type: "image/png" }), { ownerId: profileId });
  return stored.key;
}

export async function prepareDirectoryData(): Promise<string> {
  const paged = Array.from({ length: PAGED_COUNT }, (_, i) => pagedMusician(i + 1));
  const ids = await createReadyMembers(
    [
      ...Object.values(DIRECTORY_ACCOUNTS).map((a) => ({ ...a, acctType: a === DIRECTORY_ACCOUNTS.admin ? (2 as const) : undefined })),
      ...paged.map((p) => ({ email: p.email, name: "Paged", lastName: p.name })),
    ],
    DIRECTORY_PASSWORD,
  );
  const values = await db().select({ id: referenceValues.id, kind: referenceValues.kind, name: referenceValues.name }).from(referenceValues);
  const value = (kind: ReferenceKind, name: string) => {
    const found = values.find((v) => v.kind === kind && v.name === name);
    if (!found) throw new Error(`prepare-directory: no ${kind} named ${name}`);
    return found.id;
  };
  const owner = (key: keyof typeof DIRECTORY_ACCOUNTS) => ids.get(DIRECTORY_ACCOUNTS[key].email)!;

  const day = (n: number) => new Date(Date.UTC(2024, 5, n));
  const rows: BulkProfile[] = [];
  for (const type of Object.keys(DIRECTORY_TYPES) as DirectoryType[]) {
    const { provider, filter } = DIRECTORY_TYPES[type];
    const kind = filter.label.toLowerCase() as ReferenceKind;
    // An artist's filter is a genre: its target value (Jazz) is one of TARGET_GENRES already.
    const targetValues = [...TARGET_GENRES.map((g) => value("genre", g)), ...(kind === "genre" ? [] : [value(kind, filter.target)])];
    if (type === "musician") targetValues.push(value("skill", DJ_SKILL_NAME));
    if (type === "studio") targetValues.push(value("skill", SONGWRITER_SKILL_NAME));
    rows.push(
      {
        type,
        ownerId: owner("targetOwner"),
        ...directoryProfile(type, "target"),
        bio: `Prepared for the directory tests.\nSecond line of the ${type} bio.`,
        location: TARGET_LOCATION,
        publishedAt: day(20),
        valueIds: targetValues,
        links: [{ label: "X", url: `https://x.com/${TARGET_X_HANDLE}` }],
        rates: provider
          ? [
              { label: "Full day", amountCents: 400_00, unit: "per_day" },
              { label: "Hourly", amountCents: TARGET_RATE_CENTS, unit: "per_hour" },
            ]
          : [],
      },
      {
        type,
        ownerId: owner("otherOwner"),
        ...directoryProfile(type, "other"),
        location: OTHER_LOCATION,
        publishedAt: day(10),
        valueIds: [value("genre", "Rock"), ...(kind === "genre" ? [] : [value(kind, filter.other)])],
        rates: provider ? [{ label: "Hourly", amountCents: OTHER_RATE_CENTS, unit: "per_hour" }] : [],
      },
      {
        type,
        ownerId: owner("draftOwner"),
        ...directoryProfile(type, "draft"),
        location: TARGET_LOCATION,
        status: "draft",
        valueIds: targetValues,
      },
    );
  }
  for (const p of paged) {
    rows.push({
      type: "musician",
      ownerId: ids.get(p.email)!,
      name: p.name,
      username: p.username,
      publishedAt: day(1),
      valueIds: [value("genre", "Pop")],
    });
  }
  const profileIds = await insertProfiles(db(), rows);

  // Artist pages list their owner in the band, as createProfile does.
  const artists = rows.map((r, i) => ({ row: r, id: profileIds[i]! })).filter(({ row }) => row.type === "artist");
  await db()
    .insert(artistMembers)
    .values(artists.map(({ row, id }) => ({ artistId: id, userId: row.ownerId, role: "owner" as const, canEdit: true })));
  // The other member plays in the target band (its page lists band members by name).
  const targetArtist = artists.find(({ row }) => row.username === directoryProfile("artist", "target").username)!;
  await db()
    .insert(artistMembers)
    .values({ artistId: targetArtist.id, userId: owner("otherOwner"), role: "member" });

  const targets = rows.map((r, i) => ({ row: r, id: profileIds[i]! })).filter(({ row }) => row.username.endsWith("-target"));
  for (const { id } of targets)
    await db()
      .update(profiles)
      .set({ heroImg: await heroFor(id) })
      .where(eq(profiles.id, id));
  return `${ids.size} directory accounts and ${rows.length} directory profiles`;
}
