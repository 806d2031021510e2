import { and, eq, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { postProductionJobs, type PostProductionJob, type User } from "~/db/schema";
import { isAdminAccount } from "~/modules/accounts/roles";
import { validId } from "~/modules/marketplace/access.server";
import { MarketplaceError } from "~/modules/marketplace/marketplace-errors";
import { cleanText } from "~/modules/marketplace/work-requests.server";
import { PP_LIMITS } from "./post-production-rules";

/** What every post-production use case shares: the actor, who may see a job, and why a conditional UPDATE found no row. */

export type PpActor = Pick<User, "id" | "acctType" | "roleId" | "name" | "lastName" | "email">;
export type PpRole = "owner" | "engineer" | "admin";

export const NO_JOB = "This post-production job does not exist.";
export const PP_PAGE_SIZE = 25;
export const DELIVERY_ROOT = "post-production";

export const isAdmin = (actor: Pick<User, "acctType">) => isAdminAccount(actor);

/** SQL: the job's owner or engineer is the actor, or the actor is an administrator. */
export function visibleTo(actor: Pick<User, "id" | "acctType">): SQL {
  return isAdmin(actor) ? sql`true` : or(eq(postProductionJobs.ownerId, actor.id), eq(postProductionJobs.engineerId, actor.id))!;
}

/** A job row of the actor (owner, engineer, administrator); 404 otherwise. */
export async function visibleJob(executor: Db, actor: Pick<User, "id" | "acctType">, id: number): Promise<PostProductionJob> {
  const [row] = validId(id)
    ? await executor
        .select()
        .from(postProductionJobs)
        .where(and(eq(postProductionJobs.id, id), visibleTo(actor)))
    : [];
  if (!row) throw new MarketplaceError(404, NO_JOB);
  return row;
}

export const statusText = (status: string) => status.replace(/_/g, " ");

/** Why a conditional UPDATE found no row: 404 when the actor may not act on the job, else its state. */
export async function explain(executor: Db, id: number, mayAct: (job: PostProductionJob) => boolean, doing: string): Promise<MarketplaceError> {
  const [row] = validId(id) ? await executor.select().from(postProductionJobs).where(eq(postProductionJobs.id, id)) : [];
  if (!row || !mayAct(row)) return new MarketplaceError(404, NO_JOB);
  return new MarketplaceError(409, `This job is ${statusText(row.status)}: it cannot be ${doing}.`);
}

export function textBetween(value: unknown, min: number, max: number, message: string, field: string): string {
  const text = cleanText(value);
  if (text.length < min || text.length > max) throw new MarketplaceError(400, message, field);
  return text;
}

export const reasonOf = (value: unknown) =>
  textBetween(value, PP_LIMITS.reasonMin, PP_LIMITS.reasonMax, `Give a reason (${PP_LIMITS.reasonMin} to ${PP_LIMITS.reasonMax} characters).`, "reason");
