import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { managerArtists, managers, profiles, type Manager } from "~/db/schema";
import { escapeLike } from "~/db/list-queries";
import type { IndustryListQuery, ManagerInput } from "./industry-schemas";
import { INDUSTRY_PAGE_SIZE, IndustryNotFoundError, pageOf, text, type IndustryPage } from "./industry.server";

/**
 * Industry managers, a directory administrators maintain: name, company, contact details and the
 * artist pages each one represents (manager_artists). Artists are picked by their usernames.
 */

export interface ManagedArtist {
  id: number;
  name: string;
  username: string;
}

export interface ManagerRow {
  id: number;
  name: string;
  company: string;
  email: string;
  phone: string;
  website: string;
  artists: ManagedArtist[];
}

/** Some usernames name no artist page: the form shows them beside the artists field. */
export class UnknownArtistsError extends Error {
  constructor(readonly usernames: string[]) {
    const quoted = usernames.map((u) => `“${u}”`);
    const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
    super(
      quoted.length === 1
        ? `No artist page has the username ${list}. Check the spelling, or add the artist page first.`
        : `No artist pages have the usernames ${list}. Check the spelling, or add the artist pages first.`,
    );
  }
}

/** Artist page ids for the usernames (case-insensitively, on profiles_type_username_unique), or every unknown one. */
async function resolveArtists(usernames: string[]): Promise<number[]> {
  if (usernames.length === 0) return [];
  const found = await db()
    .select({ id: profiles.id, username: profiles.username })
    .from(profiles)
    .where(
      and(
        eq(profiles.type, "artist"),
        inArray(
          sql`lower(${profiles.username})`,
          usernames.map((u) => u.toLowerCase()),
        ),
      ),
    );
  const known = new Set(found.map((f) => f.username.toLowerCase()));
  const unknown = usernames.filter((u) => !known.has(u.toLowerCase()));
  if (unknown.length) throw new UnknownArtistsError(unknown);
  return found.map((f) => f.id);
}

/** The artists of these managers, by name: one query for any number of managers. */
async function artistsOf(managerIds: number[]): Promise<Map<number, ManagedArtist[]>> {
  const byManager = new Map<number, ManagedArtist[]>(managerIds.map((id) => [id, []]));
  if (managerIds.length === 0) return byManager;
  const rows = await db()
    .select({ managerId: managerArtists.managerId, id: profiles.id, name: profiles.name, username: profiles.username })
    .from(managerArtists)
    .innerJoin(profiles, eq(profiles.id, managerArtists.artistId))
    .where(inArray(managerArtists.managerId, managerIds))
    .orderBy(asc(profiles.name), asc(profiles.id));
  for (const { managerId, ...artist } of rows) byManager.get(managerId)?.push(artist);
  return byManager;
}

const columns = {
  id: managers.id,
  name: managers.name,
  company: managers.company,
  email: managers.email,
  phone: managers.phone,
  website: managers.website,
};

function searchCondition(q: string | undefined): SQL | undefined {
  const term = q?.trim();
  if (!term) return undefined;
  const pattern = `%${escapeLike(term)}%`;
  return or(ilike(managers.name, pattern), ilike(managers.company, pattern));
}

/** One page of managers by name, matching the search on name or company, with their artists: two queries. */
export async function listManagers(query: Partial<IndustryListQuery> & { pageSize?: number } = {}): Promise<IndustryPage<ManagerRow>> {
  const pageSize = query.pageSize ?? INDUSTRY_PAGE_SIZE;
  const page = Math.max(1, Math.floor(query.page ?? 1));
  const where = searchCondition(query.q);
  const rows = await db()
    .select({ ...columns, total: sql<number>`count(*) over ()` })
    .from(managers)
    .where(where)
    .orderBy(asc(managers.name), asc(managers.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && page > 1) {
    const [counted] = await db().select({ total: count() }).from(managers).where(where);
    total = Number(counted?.total ?? 0);
  }
  const artists = await artistsOf(rows.map((r) => r.id));
  return pageOf(
    rows.map(({ total: _total, ...row }) => ({ ...row, artists: artists.get(row.id) ?? [] })),
    total,
    page,
    pageSize,
  );
}

export async function getManager(id: number): Promise<ManagerRow> {
  const [row] = await db().select(columns).from(managers).where(eq(managers.id, id)).limit(1);
  if (!row) throw new IndustryNotFoundError("manager");
  const artists = await artistsOf([id]);
  return { ...row, artists: artists.get(id) ?? [] };
}

const values = (input: ManagerInput) => ({
  name: input.name.trim(),
  company: text(input.company),
  email: text(input.email),
  phone: text(input.phone),
  website: text(input.website),
});

export async function createManager(input: ManagerInput): Promise<Manager> {
  const artistIds = await resolveArtists(input.artists);
  return db().transaction(async (tx) => {
    const [manager] = await tx.insert(managers).values(values(input)).returning();
    if (artistIds.length) await tx.insert(managerArtists).values(artistIds.map((artistId) => ({ managerId: manager!.id, artistId })));
    return manager!;
  });
}

/** Saves the details and replaces the managed artists with the given ones. */
export async function updateManager(id: number, input: ManagerInput): Promise<Manager> {
  await getManagerRow(id);
  const artistIds = await resolveArtists(input.artists);
  return db().transaction(async (tx) => {
    const [manager] = await tx
      .update(managers)
      .set({ ...values(input), updatedAt: new Date() })
      .where(eq(managers.id, id))
      .returning();
    if (!manager) throw new IndustryNotFoundError("manager");
    await tx.delete(managerArtists).where(eq(managerArtists.managerId, id));
    if (artistIds.length) await tx.insert(managerArtists).values(artistIds.map((artistId) => ({ managerId: id, artistId })));
    return manager;
  });
}

async function getManagerRow(id: number): Promise<Manager> {
  const [manager] = await db().select().from(managers).where(eq(managers.id, id)).limit(1);
  if (!manager) throw new IndustryNotFoundError("manager");
  return manager;
}

/** Removes the manager and their artist links (the artist pages stay). */
export async function deleteManager(id: number): Promise<Manager> {
  const [deleted] = await db().delete(managers).where(eq(managers.id, id)).returning();
  if (!deleted) throw new IndustryNotFoundError("manager");
  return deleted;
}
