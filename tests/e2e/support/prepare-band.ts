/** Accounts and data for tests/e2e/community (band), created by prepare.ts before the server starts. */
import { db } from "../../../app/db/client.server";
import { artistMembers, profiles } from "../../../app/db/schema";
import { BAND, BAND_ARTISTS, BAND_PASSWORD, bandName, type BandKey } from "./band-accounts";
import { createReadyMembers } from "./community-members.server";

export async function prepareBandData(): Promise<string> {
  const keys = Object.keys(BAND) as BandKey[];
  const ids = await createReadyMembers(
    keys.map((key) => ({ email: BAND[key], ...bandName(key) })),
    BAND_PASSWORD,
  );
  const idOf = (key: BandKey) => ids.get(BAND[key])!;
  const now = new Date();
  for (const artist of Object.values(BAND_ARTISTS)) {
    const [created] = await db()
      .insert(profiles)
      .values({
        type: "artist",
        ownerId: idOf(artist.owner),
        name: artist.name,
        username: artist.username,
        bio: `${artist.name} exists for the band end-to-end tests.`,
        status: "published",
        publishedAt: now,
      })
      .returning({ id: profiles.id });
    await db()
      .insert(artistMembers)
      .values([
        { artistId: created!.id, userId: idOf(artist.owner), role: "owner" as const, canEdit: true },
        ...artist.members.map((m) => ({ artistId: created!.id, userId: idOf(m.key), role: "member" as const, canEdit: m.canEdit })),
      ]);
  }
  return `${keys.length} members and ${Object.keys(BAND_ARTISTS).length} artists for community/band`;
}
