/** E2E data for tests/e2e/marketplace/work-requests.spec.ts, made before the server starts (prepare.ts). */
import { db } from "../../../app/db/client.server";
import { profiles, songs } from "../../../app/db/schema";
import { createReadyMembers } from "./community-members.server";
import { WORK_REQUEST_PASSWORD, WORK_REQUEST_SCENARIOS, WR_ADMIN, WR_STRANGER, wrClient, wrProvider, type WorkRequestScenario } from "./marketplace-accounts";

export async function prepareWorkRequestData(): Promise<string> {
  const keys = Object.keys(WORK_REQUEST_SCENARIOS) as WorkRequestScenario[];
  const ids = await createReadyMembers(
    [
      ...keys.flatMap((key) => [
        { email: wrClient(key), name: "Wren", lastName: `Client ${key}` },
        { email: wrProvider(key), name: "Wade", lastName: `Provider ${key}` },
      ]),
      { email: WR_STRANGER, name: "Wes", lastName: "Stranger" },
    ],
    WORK_REQUEST_PASSWORD,
  );
  await createReadyMembers(
    [
      {
        email: WR_ADMIN,
        name: "Wanda",
        lastName: "Requests Admin",
        acctType: 2,
      },
    ],
    WORK_REQUEST_PASSWORD,
  );
  const now = new Date();
  for (const key of keys) {
    const s = WORK_REQUEST_SCENARIOS[key];
    await db()
      .insert(profiles)
      .values({
        type: s.type,
        ownerId: ids.get(wrProvider(key))!,
        name: s.profileName,
        username: s.username,
        bio: `${s.profileName}: work request tests.`,
        status: "published",
        publishedAt: now,
      });
    if (s.song) {
      const clientId = ids.get(wrClient(key))!;
      const [artist] = await db()
        .insert(profiles)
        .values({
          type: "artist",
          ownerId: clientId,
          name: `WR ${key} Artist`,
          username: `wr-${key}-artist`,
          status: "published",
          publishedAt: now,
        })
        .returning({ id: profiles.id });
      await db().insert(songs).values({ artistId: artist!.id, title: s.song, createdBy: clientId });
    }
  }
  return `${keys.length * 2 + 2} members and ${keys.length} provider profiles for marketplace/work-requests`;
}
