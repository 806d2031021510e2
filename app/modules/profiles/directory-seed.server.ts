import type { Db } from "~/db/client.server";
import { profileRates, profileReferenceValues, profiles, type ProfileLink, type ProfileStatus, type ProfileType, type RateUnit } from "~/db/schema";

/**
 * Bulk insertion of ready-made profiles with their reference values and rates, in multi-row batches:
 * used where many profiles must exist at once (the directory benchmark's 10,000, the e2e preparation,
 * service tests). Not a user-facing path: nothing is validated beyond what the database enforces.
 */

export interface BulkProfile {
  type: ProfileType;
  ownerId: number;
  name: string;
  username: string;
  bio?: string;
  location?: string;
  /** Published (with publishedAt now) unless said otherwise. */
  status?: ProfileStatus;
  publishedAt?: Date | null;
  heroImg?: string | null;
  avatarImg?: string | null;
  links?: ProfileLink[];
  sampleLinks?: ProfileLink[];
  /** Reference value ids (genres, skills, instruments, languages). */
  valueIds?: number[];
  rates?: Array<{ label: string; amountCents: number; unit: RateUnit }>;
}

/** Rows per INSERT: well under PostgreSQL's 65,535 bind parameters for every table here. */
const BATCH = 500;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Inserts the profiles in order and returns their ids in the same order. */
export async function insertProfiles(database: Pick<Db, "insert">, input: BulkProfile[]): Promise<number[]> {
  const ids: number[] = [];
  const now = new Date();
  for (const batch of chunks(input, BATCH)) {
    const rows = await database
      .insert(profiles)
      .values(
        batch.map((p) => {
          const status = p.status ?? "published";
          const published = status === "published";
          return {
            type: p.type,
            ownerId: p.ownerId,
            name: p.name,
            username: p.username,
            bio: p.bio ?? "",
            location: p.location ?? "",
            status,
            links: p.links ?? [],
            sampleLinks: p.sampleLinks ?? [],
            heroImg: p.heroImg ?? null,
            avatarImg: p.avatarImg ?? null,
            submittedAt: status === "draft" ? null : now,
            reviewedAt: published ? now : null,
            publishedAt: p.publishedAt !== undefined ? p.publishedAt : published ? now : null,
          };
        }),
      )
      .returning({ id: profiles.id });
    ids.push(...rows.map((r) => r.id));
  }
  const values = input.flatMap((p, i) => [...new Set(p.valueIds ?? [])].map((valueId) => ({ profileId: ids[i]!, valueId })));
  for (const batch of chunks(values, BATCH * 4)) await database.insert(profileReferenceValues).values(batch);
  const rates = input.flatMap((p, i) => (p.rates ?? []).map((rate, position) => ({ ...rate, profileId: ids[i]!, position })));
  for (const batch of chunks(rates, BATCH * 2)) await database.insert(profileRates).values(batch);
  return ids;
}
