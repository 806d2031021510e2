import { and, asc, count, desc, eq, exists, inArray, sql, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { profileRates, profileReferenceValues, profiles, profileSearchText, referenceValues, type ProfileType, type RateUnit } from "~/db/schema";
import { heroImagePath } from "~/modules/images/images.server";
import { escapeLike, pageCountFor } from "~/db/list-queries";
import { DIRECTORY_FILTER_KINDS, DIRECTORY_PAGE_SIZE, type DirectoryFilterKind, type DirectorySort } from "./directory-query";
import { heroImage, loadProfileExtras } from "./profile-details.server";
import { PROFILE_TYPE_INFO, PROVIDER_TYPES } from "./profile-types";

/**
 * The community directories: published profiles of one type, or for the admin `djs` and
 * `songwriters` lists the published provider profiles of every type carrying one skill. Searching,
 * filtering and sorting are single indexed queries (trigram indexes for the texts, the value index of
 * profile_reference_values for the filters); a page costs four queries whatever its size.
 */

export interface DirectorySearch {
  /** Absent: every provider type (the skill lists). */
  type?: ProfileType;
  /** Only profiles carrying the skill of this name (case-insensitive), e.g. DJ_SKILL. */
  skillName?: string;
  q?: string;
  location?: string;
  genre?: number | null;
  skill?: number | null;
  instrument?: number | null;
  language?: number | null;
  sort?: DirectorySort;
  page?: number;
  pageSize?: number;
}

export interface DirectoryCard {
  id: number;
  type: ProfileType;
  name: string;
  username: string;
  location: string;
  /** The 364x205 hero variant (with the larger ones for dense screens), or an artist's avatar. */
  image: { kind: "hero" | "avatar"; src: string; srcSet: string | null } | null;
  /** Up to three genres, by name, and how many more there are. */
  genres: string[];
  moreGenres: number;
  /** The cheapest rate ("from $X per hour"); null without rates. */
  lowestRate: { amountCents: number; currency: string; unit: RateUnit } | null;
  publishedAt: string | null;
}

export interface DirectoryList {
  cards: DirectoryCard[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

const CARD_GENRES = 3;

/** A filter: the profile carries this reference value (served by profile_reference_values_value_idx). */
export function carries(valueId: number): SQL {
  return exists(
    db()
      .select({ one: sql`1` })
      .from(profileReferenceValues)
      .where(and(eq(profileReferenceValues.profileId, profiles.id), eq(profileReferenceValues.valueId, valueId))),
  );
}

function carriesSkillNamed(name: string): SQL {
  return exists(
    db()
      .select({ one: sql`1` })
      .from(profileReferenceValues)
      .innerJoin(referenceValues, eq(referenceValues.id, profileReferenceValues.valueId))
      .where(
        and(eq(profileReferenceValues.profileId, profiles.id), eq(referenceValues.kind, "skill"), eq(sql`lower(${referenceValues.name})`, name.toLowerCase())),
      ),
  );
}

/** Name or username contains `q`: profiles_search_trgm_idx is built on exactly this expression. */
export function matchesSearch(q: string): SQL {
  return sql`${profileSearchText(profiles)} like ${`%${escapeLike(q.trim().toLowerCase())}%`}`;
}

/** Location contains `location`: served by profiles_location_trgm_idx, on lower(location). */
export function matchesLocation(location: string): SQL {
  return sql`lower(${profiles.location}) like ${`%${escapeLike(location.trim().toLowerCase())}%`}`;
}

/** The WHERE of a directory search. */
export function directoryConditions(search: DirectorySearch): SQL {
  const conditions: SQL[] = [eq(profiles.status, "published")];
  conditions.push(search.type ? eq(profiles.type, search.type) : inArray(profiles.type, [...PROVIDER_TYPES]));
  if (search.q?.trim()) conditions.push(matchesSearch(search.q));
  if (search.location?.trim()) conditions.push(matchesLocation(search.location));
  for (const kind of DIRECTORY_FILTER_KINDS) {
    const id = search[kind as DirectoryFilterKind];
    if (typeof id === "number" && Number.isInteger(id) && id > 0) conditions.push(carries(id));
  }
  if (search.skillName) conditions.push(carriesSkillNamed(search.skillName));
  return and(...conditions)!;
}

const lowestRateSql = sql`(select min(${profileRates.amountCents}) from ${profileRates} where ${profileRates.profileId} = ${profiles.id})`;

function directoryOrder(search: DirectorySearch): SQL[] {
  const rates = search.type ? PROFILE_TYPE_INFO[search.type].provider : true;
  switch (search.sort) {
    case "newest":
      return [desc(profiles.publishedAt), desc(profiles.id)];
    case "rate":
      // Profiles without rates come last; equal prices by name.
      if (rates) return [sql`${lowestRateSql} asc nulls last`, asc(profiles.name), asc(profiles.id)];
      return [asc(profiles.name), asc(profiles.id)];
    default:
      return [asc(profiles.name), asc(profiles.id)];
  }
}

/** One page of a directory and its total: two queries for the page, two for its values and rates. */
export async function listDirectory(search: DirectorySearch): Promise<DirectoryList> {
  const pageSize = search.pageSize ?? DIRECTORY_PAGE_SIZE;
  const page = Math.max(1, Math.floor(search.page ?? 1));
  const where = directoryConditions(search);
  // The page and the total in one statement; only a page past the end (no row to carry it) counts apart.
  const rows = await db()
    .select({
      id: profiles.id,
      type: profiles.type,
      name: profiles.name,
      username: profiles.username,
      location: profiles.location,
      heroImg: profiles.heroImg,
      avatarImg: profiles.avatarImg,
      publishedAt: profiles.publishedAt,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(profiles)
    .where(where)
    .orderBy(...directoryOrder(search))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const total = rows[0]?.total ?? (page > 1 ? Number((await db().select({ total: count() }).from(profiles).where(where))[0]?.total ?? 0) : 0);
  const extras = await loadProfileExtras(rows.map((r) => r.id));
  const cards = rows.map((row): DirectoryCard => {
    const { values, rates } = extras.get(row.id)!;
    const cheapest = rates.reduce<(typeof rates)[number] | null>((best, rate) => (!best || rate.amountCents < best.amountCents ? rate : best), null);
    return {
      id: row.id,
      type: row.type,
      name: row.name,
      username: row.username,
      location: row.location,
      image: cardImage(row),
      genres: values.genre.slice(0, CARD_GENRES).map((v) => v.name),
      moreGenres: Math.max(0, values.genre.length - CARD_GENRES),
      lowestRate: cheapest ? { amountCents: cheapest.amountCents, currency: cheapest.currency, unit: cheapest.unit } : null,
      publishedAt: row.publishedAt ? row.publishedAt.toISOString() : null,
    };
  });
  return { cards, total, page, pageSize, pageCount: pageCountFor(total, pageSize) };
}

function cardImage(row: { id: number; type: ProfileType; heroImg: string | null; avatarImg: string | null }): DirectoryCard["image"] {
  const small = heroImagePath(row.id, row.heroImg, "364x205");
  if (small) return { kind: "hero", src: small, srcSet: heroImage(row)?.srcSet ?? null };
  if (row.type === "artist" && row.avatarImg) return { kind: "avatar", src: row.avatarImg, srcSet: null };
  return null;
}
