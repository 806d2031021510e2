import { asc, count, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { venues, type Venue } from "~/db/schema";
import { escapeLike } from "~/db/list-queries";
import type { IndustryListQuery, VenueInput } from "./industry-schemas";
import { INDUSTRY_PAGE_SIZE, IndustryNotFoundError, pageOf, text, type IndustryPage } from "./industry.server";

/** Venues, a directory administrators maintain: name, city, country, capacity and contact details. */

export interface VenueRow {
  id: number;
  name: string;
  city: string;
  country: string;
  capacity: number | null;
  email: string;
  phone: string;
  website: string;
}

const columns = {
  id: venues.id,
  name: venues.name,
  city: venues.city,
  country: venues.country,
  capacity: venues.capacity,
  email: venues.email,
  phone: venues.phone,
  website: venues.website,
};

function searchCondition(q: string | undefined): SQL | undefined {
  const term = q?.trim();
  if (!term) return undefined;
  const pattern = `%${escapeLike(term)}%`;
  return or(ilike(venues.name, pattern), ilike(venues.city, pattern), ilike(venues.country, pattern));
}

/** One page of venues by name, matching the search on name, city or country: one query. */
export async function listVenues(query: Partial<IndustryListQuery> & { pageSize?: number } = {}): Promise<IndustryPage<VenueRow>> {
  const pageSize = query.pageSize ?? INDUSTRY_PAGE_SIZE;
  const page = Math.max(1, Math.floor(query.page ?? 1));
  const where = searchCondition(query.q);
  const rows = await db()
    .select({ ...columns, total: sql<number>`count(*) over ()` })
    .from(venues)
    .where(where)
    .orderBy(asc(venues.name), asc(venues.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && page > 1) {
    const [counted] = await db().select({ total: count() }).from(venues).where(where);
    total = Number(counted?.total ?? 0);
  }
  return pageOf(
    rows.map(({ total: _total, ...row }) => row),
    total,
    page,
    pageSize,
  );
}

export async function getVenue(id: number): Promise<VenueRow> {
  const [row] = await db().select(columns).from(venues).where(eq(venues.id, id)).limit(1);
  if (!row) throw new IndustryNotFoundError("venue");
  return row;
}

const values = (input: VenueInput) => ({
  name: input.name.trim(),
  city: text(input.city),
  country: text(input.country),
  capacity: input.capacity ?? null,
  email: text(input.email),
  phone: text(input.phone),
  website: text(input.website),
});

export async function createVenue(input: VenueInput): Promise<Venue> {
  const [venue] = await db().insert(venues).values(values(input)).returning();
  return venue!;
}

export async function updateVenue(id: number, input: VenueInput): Promise<Venue> {
  const [venue] = await db()
    .update(venues)
    .set({ ...values(input), updatedAt: new Date() })
    .where(eq(venues.id, id))
    .returning();
  if (!venue) throw new IndustryNotFoundError("venue");
  return venue;
}

export async function deleteVenue(id: number): Promise<Venue> {
  const [deleted] = await db().delete(venues).where(eq(venues.id, id)).returning();
  if (!deleted) throw new IndustryNotFoundError("venue");
  return deleted;
}
