import { and, asc, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { db } from "~/db/client.server";
import { escapeLike, pageCountFor } from "~/db/list-queries";
import {
  postProductionDeliveries,
  postProductionJobs,
  postProductionServices,
  postProductionStatuses,
  profiles,
  songs,
  users,
  type PostProductionDelivery,
  type PostProductionJob,
  type PostProductionService,
  type PostProductionStatus,
  type User,
} from "~/db/schema";
import { validId } from "~/modules/marketplace/access.server";
import { MarketplaceError } from "~/modules/marketplace/marketplace-errors";
import { cleanText, type ListPage } from "~/modules/marketplace/work-requests.server";
import { isAdmin, NO_JOB, PP_PAGE_SIZE, type PpRole, visibleTo } from "./job-access.server";

export interface JobDetail {
  job: PostProductionJob;
  role: PpRole;
  song: { id: number; title: string; version: string; artistName: string; hasAudio: boolean };
  owner: { id: number; name: string };
  engineer: { id: number | null; name: string | null; email: string | null };
  deliveries: PostProductionDelivery[];
}

const ownerUser = alias(users, "pp_owner");
const engineerUser = alias(users, "pp_engineer");

/** One job with its song, people and deliveries, for its owner, its engineer or an administrator. Two statements. */
export async function getJob(actor: Pick<User, "id" | "acctType">, id: number): Promise<JobDetail> {
  if (!validId(id)) throw new MarketplaceError(404, NO_JOB);
  const [rows, deliveries] = await Promise.all([
    db()
      .select({
        job: postProductionJobs,
        songTitle: songs.title,
        songVersion: songs.version,
        songHasAudio: sql<boolean>`${songs.audioPath} is not null`,
        artistName: profiles.name,
        ownerName: sql<string>`${ownerUser.name} || ' ' || ${ownerUser.lastName}`,
        engineerName: sql<string | null>`${engineerUser.name} || ' ' || ${engineerUser.lastName}`,
        engineerEmail: engineerUser.email,
      })
      .from(postProductionJobs)
      .innerJoin(songs, eq(songs.id, postProductionJobs.songId))
      .innerJoin(profiles, eq(profiles.id, songs.artistId))
      .innerJoin(ownerUser, eq(ownerUser.id, postProductionJobs.ownerId))
      .leftJoin(engineerUser, eq(engineerUser.id, postProductionJobs.engineerId))
      .where(and(eq(postProductionJobs.id, id), visibleTo(actor))),
    // Read beside the job; shown only when the job is visible.
    db()
      .select({ d: postProductionDeliveries })
      .from(postProductionDeliveries)
      .innerJoin(postProductionJobs, eq(postProductionJobs.id, postProductionDeliveries.jobId))
      .where(and(eq(postProductionDeliveries.jobId, id), visibleTo(actor)))
      .orderBy(asc(postProductionDeliveries.createdAt), asc(postProductionDeliveries.id)),
  ]);
  const row = rows[0];
  if (!row) throw new MarketplaceError(404, NO_JOB);
  const j = row.job;
  const role: PpRole = j.ownerId === actor.id ? "owner" : j.engineerId === actor.id ? "engineer" : "admin";
  return {
    job: j,
    role,
    song: { id: j.songId, title: row.songTitle, version: row.songVersion, artistName: row.artistName, hasAudio: row.songHasAudio },
    owner: { id: j.ownerId, name: row.ownerName },
    engineer: { id: j.engineerId, name: j.engineerId ? row.engineerName : null, email: j.engineerId ? row.engineerEmail : j.invitedEmail },
    deliveries: deliveries.map((d) => d.d),
  };
}

export interface JobListRow {
  id: number;
  service: PostProductionService;
  status: PostProductionStatus;
  stage: string | null;
  songTitle: string;
  ownerName: string;
  engineerName: string | null;
  invitedEmail: string | null;
  createdAt: Date;
  updatedAt: Date;
}

async function jobPage(where: SQL | undefined, page: number, pageSize = PP_PAGE_SIZE): Promise<ListPage<JobListRow>> {
  const [rows, [count]] = await Promise.all([
    db()
      .select({
        id: postProductionJobs.id,
        service: postProductionJobs.service,
        status: postProductionJobs.status,
        stage: postProductionJobs.stage,
        songTitle: songs.title,
        ownerName: sql<string>`${ownerUser.name} || ' ' || ${ownerUser.lastName}`,
        engineerName: sql<string | null>`${engineerUser.name} || ' ' || ${engineerUser.lastName}`,
        invitedEmail: postProductionJobs.invitedEmail,
        createdAt: postProductionJobs.createdAt,
        updatedAt: postProductionJobs.updatedAt,
      })
      .from(postProductionJobs)
      .innerJoin(songs, eq(songs.id, postProductionJobs.songId))
      .innerJoin(ownerUser, eq(ownerUser.id, postProductionJobs.ownerId))
      .leftJoin(engineerUser, eq(engineerUser.id, postProductionJobs.engineerId))
      .where(where)
      .orderBy(desc(postProductionJobs.createdAt), desc(postProductionJobs.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db()
      .select({ n: sql<number>`count(*)::int` })
      .from(postProductionJobs)
      .innerJoin(songs, eq(songs.id, postProductionJobs.songId))
      .innerJoin(ownerUser, eq(ownerUser.id, postProductionJobs.ownerId))
      .leftJoin(engineerUser, eq(engineerUser.id, postProductionJobs.engineerId))
      .where(where),
  ]);
  const total = count?.n ?? 0;
  return { rows, total, page, pageSize, pageCount: pageCountFor(total, pageSize) };
}

const pageOf = (page: number | undefined) => (Number.isInteger(page) && page! >= 1 && page! <= 10_000 ? page! : 1);
const statusOf = (status: string | undefined) =>
  status && (postProductionStatuses as readonly string[]).includes(status) ? (status as PostProductionStatus) : null;

/** A member's jobs, as the song's owner or as the engineer, newest first, by status. Two statements. */
export async function listMemberJobs(
  memberId: number,
  as: "owner" | "engineer",
  page?: number,
  filter: { status?: string } = {},
): Promise<ListPage<JobListRow>> {
  const status = statusOf(filter.status);
  return jobPage(
    and(
      as === "owner" ? eq(postProductionJobs.ownerId, memberId) : eq(postProductionJobs.engineerId, memberId),
      status ? eq(postProductionJobs.status, status) : undefined,
    ),
    pageOf(page),
  );
}

/** Every job, for administrators: by status and service, searched by song, owner, engineer or number. Two statements. */
export async function adminListJobs(
  actor: Pick<User, "acctType">,
  query: { status?: string; service?: string; q?: string; page?: number } = {},
): Promise<ListPage<JobListRow>> {
  if (!isAdmin(actor)) throw new MarketplaceError(404, NO_JOB);
  const status = statusOf(query.status);
  const service = query.service && (postProductionServices as readonly string[]).includes(query.service) ? (query.service as PostProductionService) : null;
  const q = cleanText(query.q).slice(0, 100).toLowerCase();
  const like = `%${escapeLike(q)}%`;
  const where = and(
    status ? eq(postProductionJobs.status, status) : undefined,
    service ? eq(postProductionJobs.service, service) : undefined,
    q
      ? or(
          ilike(songs.title, like),
          sql`lower(${ownerUser.name} || ' ' || ${ownerUser.lastName} || ' ' || ${ownerUser.email}) like ${like}`,
          sql`lower(coalesce(${engineerUser.name} || ' ' || ${engineerUser.lastName} || ' ' || ${engineerUser.email}, '')) like ${like}`,
          sql`lower(coalesce(${postProductionJobs.invitedEmail}, '')) like ${like}`,
          /^\d{1,9}$/.test(q) ? eq(postProductionJobs.id, Number(q)) : undefined,
        )
      : undefined,
  );
  return jobPage(where, pageOf(query.page));
}
