/** Accounts and data for tests/e2e/community (moderation), created by prepare.ts before the server starts. */
import { and, asc, eq, isNull } from "drizzle-orm";
import { db } from "../../../app/db/client.server";
import { artistMembers, profileRates, profileReferenceValues, profiles, referenceValues } from "../../../app/db/schema";
import { createReadyMembers } from "./community-members.server";
import {
  COMPLETE_BIO,
  MODERATION_ADMIN,
  MODERATION_CASES,
  MODERATION_PASSWORD,
  MODERATION_TYPES,
  moderationAccount,
  SHORT_BIO,
  type ModerationCase,
  type ModerationType,
} from "./moderation-accounts";

export async function prepareModerationData(): Promise<string> {
  const cases = Object.keys(MODERATION_CASES) as ModerationCase[];
  const types = Object.keys(MODERATION_TYPES) as ModerationType[];
  const pairs = cases.flatMap((kase) => types.map((type) => ({ kase, type, account: moderationAccount(kase, type) })));
  const ids = await createReadyMembers(
    [
      { email: MODERATION_ADMIN.email, name: MODERATION_ADMIN.name, lastName: MODERATION_ADMIN.lastName, acctType: 2 },
      ...pairs.map(({ account }) => ({ email: account.email, name: account.name, lastName: account.lastName })),
    ],
    MODERATION_PASSWORD,
  );

  // Any active genre of the seeded reference data (boot seeds it before this runs).
  const [genre] = await db()
    .select({ id: referenceValues.id })
    .from(referenceValues)
    .where(and(eq(referenceValues.kind, "genre"), isNull(referenceValues.retiredAt)))
    .orderBy(asc(referenceValues.name))
    .limit(1);
  if (!genre) throw new Error("prepare-moderation: no genre is seeded");

  const now = new Date();
  const created = await db()
    .insert(profiles)
    .values(
      pairs.map(({ kase, type, account }) => {
        const status = MODERATION_CASES[kase];
        return {
          type,
          ownerId: ids.get(account.email)!,
          name: account.profileName,
          username: account.username,
          bio: kase === "incomplete" ? SHORT_BIO : COMPLETE_BIO,
          location: "Berlin, Germany",
          status,
          submittedAt: status === "draft" ? null : now,
          reviewedAt: status === "published" ? now : null,
          publishedAt: status === "published" ? now : null,
        };
      }),
    )
    .returning({ id: profiles.id, type: profiles.type, name: profiles.name, ownerId: profiles.ownerId });

  // An artist page's owner is also its band's owner row (as the app creates it).
  const artists = created.filter((p) => p.type === "artist");
  await db()
    .insert(artistMembers)
    .values(artists.map((p) => ({ artistId: p.id, userId: p.ownerId, role: "owner" as const, canEdit: true })));

  const complete = created.filter((p) => !p.name.startsWith("Moderation Incomplete"));
  await db()
    .insert(profileReferenceValues)
    .values(complete.map((p) => ({ profileId: p.id, valueId: genre.id })));
  const providers = complete.filter((p) => MODERATION_TYPES[p.type].provider);
  await db()
    .insert(profileRates)
    .values(providers.map((p) => ({ profileId: p.id, label: "Session", amountCents: 12_500, unit: "per_hour" as const })));

  return `${pairs.length} members with one profile each and 1 administrator for community/moderation`;
}
