import { and, asc, count, eq, ilike, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { profileReferenceValues, referenceValues, type ReferenceKind, type ReferenceValue } from "~/db/schema";
import { isUniqueViolation } from "~/db/errors";
import { escapeLike, pageCountFor } from "~/db/list-queries";
import { protectedSkillList, REFERENCE_PAGES, type ReferenceInput, type ReferenceListQuery } from "./reference-schemas";
import { invalidateReferenceOptions } from "./reference-options.server";

/**
 * Reference data administration (genres, skills, instruments, languages, PROs): one table, one set of
 * operations taking the kind. A value is never deleted: retiring it keeps it on the profiles that carry it
 * (profile_reference_values restricts deletes anyway) while loadReferenceOptions stops offering it.
 */

export const REFERENCE_PAGE_SIZE = 50;

export interface ReferenceRow {
  id: number;
  name: string;
  country: string | null;
  website: string | null;
  code: string | null;
  retiredAt: string | null;
  /** How many profiles carry the value (retired or not). */
  profileCount: number;
}

export interface ReferenceList {
  values: ReferenceRow[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

/** The id is not a value of this kind (or not a value at all): the page answers 404. */
export class ReferenceNotFoundError extends Error {
  constructor() {
    super("There is no such value.");
  }
}

/** A refusal shown beside one field of the form. */
export class ReferenceFieldError extends Error {
  constructor(
    readonly field: "name",
    message: string,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------- list

const usageCount = sql<number>`(select count(*) from ${profileReferenceValues} where ${profileReferenceValues.valueId} = ${referenceValues.id})`;

function listConditions(kind: ReferenceKind, query: Partial<ReferenceListQuery>): SQL | undefined {
  const conditions: Array<SQL | undefined> = [eq(referenceValues.kind, kind)];
  const q = query.q?.trim();
  if (q) {
    const pattern = `%${escapeLike(q)}%`;
    // PROs are also found by their code or country ("PRS", "Japan").
    conditions.push(
      kind === "pro"
        ? or(ilike(referenceValues.name, pattern), ilike(referenceValues.code, pattern), ilike(referenceValues.country, pattern))
        : ilike(referenceValues.name, pattern),
    );
  }
  if (query.status === "active") conditions.push(isNull(referenceValues.retiredAt));
  if (query.status === "retired") conditions.push(isNotNull(referenceValues.retiredAt));
  return and(...conditions);
}

/**
 * One page of a kind's values by name (reference_values_kind_name_idx), each with the number of profiles
 * carrying it (a correlated count on profile_reference_values_value_idx) and the total matching: one query.
 * Only a page past the end costs a second query, for the total.
 */
export async function listReferenceValues(kind: ReferenceKind, query: Partial<ReferenceListQuery> & { pageSize?: number } = {}): Promise<ReferenceList> {
  const pageSize = query.pageSize ?? REFERENCE_PAGE_SIZE;
  const page = Math.max(1, Math.floor(query.page ?? 1));
  const where = listConditions(kind, query);
  const rows = await db()
    .select({
      id: referenceValues.id,
      name: referenceValues.name,
      country: referenceValues.country,
      website: referenceValues.website,
      code: referenceValues.code,
      retiredAt: referenceValues.retiredAt,
      profileCount: usageCount,
      total: sql<number>`count(*) over ()`,
    })
    .from(referenceValues)
    .where(where)
    .orderBy(asc(referenceValues.name), asc(referenceValues.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && page > 1) {
    const [counted] = await db().select({ total: count() }).from(referenceValues).where(where);
    total = Number(counted?.total ?? 0);
  }
  return {
    values: rows.map((row) => ({
      id: row.id,
      name: row.name,
      country: row.country,
      website: row.website,
      code: row.code,
      retiredAt: row.retiredAt ? row.retiredAt.toISOString() : null,
      profileCount: Number(row.profileCount),
    })),
    total,
    page,
    pageSize,
    pageCount: pageCountFor(total, pageSize),
  };
}

// ---------------------------------------------------------------- changes

/** The columns a kind stores: PRO fields only for PROs (other kinds keep them null). */
function columnsFor(kind: ReferenceKind, input: ReferenceInput) {
  const name = input.name.trim();
  if (kind !== "pro") return { name, country: null, website: null, code: null };
  const optional = (value: string | undefined) => value?.trim() || null;
  return { name, country: optional(input.country), website: optional(input.website), code: optional(input.code)?.toUpperCase() ?? null };
}

/** The field error for a name the kind already has (unique on kind and lower(name)), saying whether it is retired. */
async function nameTakenError(kind: ReferenceKind, name: string): Promise<ReferenceFieldError> {
  const info = REFERENCE_PAGES[kind];
  const [existing] = await db()
    .select({ name: referenceValues.name, retiredAt: referenceValues.retiredAt })
    .from(referenceValues)
    .where(and(eq(referenceValues.kind, kind), sql`lower(${referenceValues.name}) = lower(${name})`))
    .limit(1);
  const shown = existing?.name ?? name;
  return new ReferenceFieldError(
    "name",
    existing?.retiredAt
      ? `A retired ${info.noun} is already called “${shown}”: restore it instead of adding it again.`
      : `“${shown}” is already in the ${info.nounPlural} list.`,
  );
}

async function findValue(kind: ReferenceKind, id: number): Promise<ReferenceValue> {
  const [value] = await db()
    .select()
    .from(referenceValues)
    .where(and(eq(referenceValues.id, id), eq(referenceValues.kind, kind)))
    .limit(1);
  if (!value) throw new ReferenceNotFoundError();
  return value;
}

export async function createReferenceValue(kind: ReferenceKind, input: ReferenceInput): Promise<ReferenceValue> {
  const columns = columnsFor(kind, input);
  try {
    const [value] = await db()
      .insert(referenceValues)
      .values({ kind, ...columns })
      .returning();
    invalidateReferenceOptions();
    return value!;
  } catch (error) {
    if (isUniqueViolation(error)) throw await nameTakenError(kind, columns.name);
    throw error;
  }
}

/** Renames a value (and sets a PRO's country, website and code). `changed` is false when nothing differed. */
export async function updateReferenceValue(
  kind: ReferenceKind,
  id: number,
  input: ReferenceInput,
): Promise<{ value: ReferenceValue; changed: boolean; previousName: string }> {
  const current = await findValue(kind, id);
  const columns = columnsFor(kind, input);
  const list = protectedSkillList(kind, current.name);
  if (list && columns.name !== current.name) {
    throw new ReferenceFieldError("name", `The “${current.name}” skill cannot be renamed: the admin ${list} list finds its profiles by this name.`);
  }
  const unchanged =
    columns.name === current.name && columns.country === current.country && columns.website === current.website && columns.code === current.code;
  if (unchanged) return { value: current, changed: false, previousName: current.name };
  try {
    const [value] = await db()
      .update(referenceValues)
      .set({ ...columns, updatedAt: new Date() })
      .where(and(eq(referenceValues.id, id), eq(referenceValues.kind, kind)))
      .returning();
    if (!value) throw new ReferenceNotFoundError();
    invalidateReferenceOptions();
    return { value, changed: true, previousName: current.name };
  } catch (error) {
    if (isUniqueViolation(error)) throw await nameTakenError(kind, columns.name);
    throw error;
  }
}

export interface StatusChange {
  value: ReferenceValue;
  /** False when the value already had the requested status. */
  changed: boolean;
  /** Profiles carrying the value: they keep it either way. */
  profileCount: number;
}

async function setRetired(kind: ReferenceKind, id: number, retire: boolean): Promise<StatusChange> {
  const now = new Date();
  const where = and(
    eq(referenceValues.id, id),
    eq(referenceValues.kind, kind),
    retire ? isNull(referenceValues.retiredAt) : isNotNull(referenceValues.retiredAt),
  );
  const [[updated], [usage]] = await Promise.all([
    db()
      .update(referenceValues)
      .set({ retiredAt: retire ? now : null, updatedAt: now })
      .where(where)
      .returning(),
    db().select({ n: count() }).from(profileReferenceValues).where(eq(profileReferenceValues.valueId, id)),
  ]);
  const profileCount = Number(usage?.n ?? 0);
  if (updated) {
    invalidateReferenceOptions();
    return { value: updated, changed: true, profileCount };
  }
  return { value: await findValue(kind, id), changed: false, profileCount };
}

/** Stops offering the value on profile forms; the profiles that carry it keep it. */
export function retireReferenceValue(kind: ReferenceKind, id: number): Promise<StatusChange> {
  return setRetired(kind, id, true);
}

/** Offers a retired value again. */
export function restoreReferenceValue(kind: ReferenceKind, id: number): Promise<StatusChange> {
  return setRetired(kind, id, false);
}
