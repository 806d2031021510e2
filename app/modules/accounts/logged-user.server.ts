import type { User } from "~/db/schema";
import { eq, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { users } from "~/db/schema";
import { pendingDocumentsFor } from "~/modules/legal/legal.server";
import { postProductionJobsCountSql } from "~/modules/post-production/jobs-count.server";
import { fullName } from "./current-user.server";

/** The logged-in user as the spec's section 3 names it (also GET /api/members/profile/logged-user/{id}). */
export interface LoggedUser {
  id: number;
  name: string;
  last_name: string;
  fullname: string;
  email: string;
  avatar_img: string | null;
  acct_type: number;
  role_id: number;
  agreed_to_all_documents: boolean;
  post_production_jobs_count: number;
}

/** `postProductionJobsCount` comes with the request's session statement (session-user.server.ts). */
export function toLoggedUser(user: User, agreedToAllDocuments: boolean, postProductionJobsCount = 0): LoggedUser {
  return {
    id: user.id,
    name: user.name,
    last_name: user.lastName,
    fullname: fullName(user),
    email: user.email,
    avatar_img: user.avatarImg,
    acct_type: user.acctType,
    role_id: user.roleId,
    agreed_to_all_documents: agreedToAllDocuments,
    // The member's jobs as owner or engineer, any status (decision 023).
    post_production_jobs_count: postProductionJobsCount,
  };
}

export async function loadLoggedUser(user: User): Promise<LoggedUser> {
  const [pending, [count]] = await Promise.all([
    pendingDocumentsFor(user.id),
    // The id as a parameter: a lone table's column would be rendered unqualified inside the subquery.
    db()
      .select({ n: postProductionJobsCountSql(sql`${user.id}::int`) })
      .from(users)
      .where(eq(users.id, user.id)),
  ]);
  return toLoggedUser(user, pending.length === 0, Number(count?.n) || 0);
}
