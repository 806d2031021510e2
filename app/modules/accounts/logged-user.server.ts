import type { User } from "~/db/schema";
import { pendingDocumentsFor } from "~/modules/legal/legal.server";
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

export function toLoggedUser(user: User, agreedToAllDocuments: boolean): LoggedUser {
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
    // Post-production jobs arrive with the work issue; until that table exists nobody has any.
    post_production_jobs_count: 0,
  };
}

export async function loadLoggedUser(user: User): Promise<LoggedUser> {
  const pending = await pendingDocumentsFor(user.id);
  return toLoggedUser(user, pending.length === 0);
}
