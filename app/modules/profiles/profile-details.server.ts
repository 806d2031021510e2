import { asc, eq, inArray } from "drizzle-orm";
import { db } from "~/db/client.server";
import { profileRates, profileReferenceValues, referenceValues, type Profile, type ProfileRate, type ReferenceKind } from "~/db/schema";
import { heroImagePath } from "~/modules/images/images.server";

export interface ProfileValue {
  id: number;
  name: string;
  /** Retired values stay on the profile (shown) but can no longer be picked. */
  retired: boolean;
}

/** What the pages show of a profile beyond its own row. */
export interface ProfileExtras {
  /** The reference values the profile carries, per kind, sorted by name. */
  values: Record<ReferenceKind, ProfileValue[]>;
  rates: ProfileRate[];
}

export type HeroImage = { src: string; srcSet: string } | null;

const emptyValues = (): Record<ReferenceKind, ProfileValue[]> => ({ genre: [], skill: [], instrument: [], language: [], pro: [] });

/** The 728x410 header image with its 2x and small variants for srcset. */
export function heroImage(profile: Pick<Profile, "id" | "heroImg">): HeroImage {
  const src = heroImagePath(profile.id, profile.heroImg, "728x410");
  if (!src) return null;
  const small = heroImagePath(profile.id, profile.heroImg, "364x205");
  const large = heroImagePath(profile.id, profile.heroImg, "1456x820");
  return { src, srcSet: `${small} 364w, ${src} 728w, ${large} 1456w` };
}

/**
 * Values and rates of many profiles at once (two queries, whatever the count): directories and lists
 * use this so their loaders stay bounded.
 */
export async function loadProfileExtras(profileIds: number[]): Promise<Map<number, ProfileExtras>> {
  const extras = new Map<number, ProfileExtras>();
  for (const id of profileIds) extras.set(id, { values: emptyValues(), rates: [] });
  if (profileIds.length === 0) return extras;
  const [valueRows, rateRows] = await Promise.all([
    db()
      .select({
        profileId: profileReferenceValues.profileId,
        id: referenceValues.id,
        name: referenceValues.name,
        kind: referenceValues.kind,
        retiredAt: referenceValues.retiredAt,
      })
      .from(profileReferenceValues)
      .innerJoin(referenceValues, eq(referenceValues.id, profileReferenceValues.valueId))
      .where(inArray(profileReferenceValues.profileId, profileIds))
      .orderBy(asc(referenceValues.name)),
    db().select().from(profileRates).where(inArray(profileRates.profileId, profileIds)).orderBy(asc(profileRates.position), asc(profileRates.id)),
  ]);
  for (const row of valueRows) {
    extras.get(row.profileId)!.values[row.kind].push({ id: row.id, name: row.name, retired: row.retiredAt !== null });
  }
  for (const rate of rateRows) extras.get(rate.profileId)!.rates.push(rate);
  return extras;
}
