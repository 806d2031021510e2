import { and, desc, eq, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { db } from "~/db/client.server";
import { profiles, profileSearchText, profileStatuses, users, userSearchText, type ProfileStatus, type ProfileType } from "~/db/schema";
import { fullName } from "~/modules/accounts/current-user.server";
import { escapeLike, pageCountFor } from "~/db/list-queries";
import { PROFILE_TYPE_INFO } from "./profile-types";

/**
 * The admin moderation lists (`/admin/{directory}/profiles`): every profile of one type in any status,
 * pending ones first, with a status filter, a search over the profile's name and username and the
 * owner's name and email, and pages. Always two queries: the page, and the counts.
 */

export const MODERATION_PAGE_SIZE = 25;

/** Anything malformed in the URL falls back to "no filter" / page 1 rather than an error page. */
const ModerationQuerySchema = z.object({
  q: z.string().trim().max(100).catch(""),
  status: z.enum(profileStatuses).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});
export type ModerationQuery = z.infer<typeof ModerationQuerySchema>;

export function parseModerationQuery(params: URLSearchParams): ModerationQuery {
  return ModerationQuerySchema.parse({ q: params.get("q") ?? "", status: params.get("status") || undefined, page: params.get("page") ?? 1 });
}

export interface ModerationRow {
  id: number;
  name: string;
  username: string;
  status: ProfileStatus;
  ownerId: number;
  ownerName: string;
  ownerEmail: string;
  submittedAt: string | null;
  updatedAt: string;
}

export interface ModerationList {
  rows: ModerationRow[];
  /** Profiles matching the filters. */
  total: number;
  /** Profiles of this type waiting for a decision, whatever the filters. */
  pending: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

function conditions(type: ProfileType, query: Partial<ModerationQuery>): SQL {
  const parts: Array<SQL | undefined> = [eq(profiles.type, type)];
  const q = query.q?.trim();
  if (q) {
    const pattern = `%${escapeLike(q)}%`;
    // Both expressions have their own trigram index (profiles_search_trgm_idx, users_search_trgm_idx).
    parts.push(or(sql`${profileSearchText(profiles)} like lower(${pattern})`, sql`${userSearchText(users)} like lower(${pattern})`));
  }
  if (query.status) parts.push(eq(profiles.status, query.status));
  return and(...parts)!;
}

export async function listProfilesForModeration(type: ProfileType, query: Partial<ModerationQuery> & { pageSize?: number } = {}): Promise<ModerationList> {
  const pageSize = query.pageSize ?? MODERATION_PAGE_SIZE;
  const page = Math.max(1, Math.floor(query.page ?? 1));
  const where = conditions(type, query);
  const [rows, counts] = await Promise.all([
    db()
      .select({
        id: profiles.id,
        name: profiles.name,
        username: profiles.username,
        status: profiles.status,
        ownerId: profiles.ownerId,
        ownerFirstName: users.name,
        ownerLastName: users.lastName,
        ownerEmail: users.email,
        submittedAt: profiles.submittedAt,
        updatedAt: profiles.updatedAt,
      })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.ownerId))
      .where(where)
      // Waiting profiles first (the moderation queue), then the most recently changed.
      .orderBy(desc(sql`(${profiles.status} = 'pending_approval')`), desc(profiles.updatedAt), desc(profiles.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db()
      .select({
        total: sql<number>`count(*)::int`,
        pending: sql<number>`(select count(*)::int from ${profiles} where ${profiles.type} = ${type} and ${profiles.status} = 'pending_approval')`,
      })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.ownerId))
      .where(where),
  ]);
  const total = Number(counts[0]?.total ?? 0);
  return {
    rows: rows.map((row) => ({
      id: row.id,
      name: row.name,
      username: row.username,
      status: row.status,
      ownerId: row.ownerId,
      ownerName: fullName({ name: row.ownerFirstName, lastName: row.ownerLastName }),
      ownerEmail: row.ownerEmail,
      submittedAt: row.submittedAt?.toISOString() ?? null,
      updatedAt: row.updatedAt.toISOString(),
    })),
    total,
    pending: Number(counts[0]?.pending ?? 0),
    page,
    pageSize,
    pageCount: pageCountFor(total, pageSize),
  };
}

/** The data of each `admin.{directory}.profiles` route (after its admin guard). */
export async function moderationListData(type: ProfileType, params: URLSearchParams) {
  const query = parseModerationQuery(params);
  const list = await listProfilesForModeration(type, query);
  const info = PROFILE_TYPE_INFO[type];
  return { type, label: info.label, plural: info.plural, adminPage: info.adminPage, query, list };
}
