import { sql, type SQLWrapper } from "drizzle-orm";
import { postProductionJobs } from "~/db/schema";

/**
 * The logged user's `post_production_jobs_count`, as a column of the request's one session statement
 * (session-user.server.ts, decision 013): every job the user owns or is the bound engineer of, whatever its
 * status, since the list page shows them all (decision 023). Kept apart so the session code imports no more.
 * `userId` must be qualified (`"users"."id"`, as in a join) or a parameter: a bare `"id"` would name the job's.
 */
export function postProductionJobsCountSql(userId: SQLWrapper) {
  return sql<number>`(select count(*)::int from ${postProductionJobs} ppj where ppj.owner_id = ${userId} or ppj.engineer_id = ${userId})`;
}
