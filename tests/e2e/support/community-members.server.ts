/**
 * Creates ready-to-use members for the community suites before the server starts (prepare.ts runs the
 * prepare-*.ts files): verified, activated and signed, one password hash for all, no mail.
 * Only prepare files import this (it touches the database); spec files import the *-accounts.ts lists.
 */
import { db } from "../../../app/db/client.server";
import { users } from "../../../app/db/schema";
import { hashPassword } from "../../../app/modules/accounts/password.server";
import { listPublishedDocuments, signDocuments } from "../../../app/modules/legal/legal.server";

export interface PreparedMember {
  email: string;
  name: string;
  lastName: string;
  /** Defaults to a member (1); 2 makes an administrator with role Admin. */
  acctType?: 1 | 2;
}

/** Inserts the accounts; returns their ids by email. */
export async function createReadyMembers(members: PreparedMember[], password: string): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (members.length === 0) return ids;
  const documentIds = (await listPublishedDocuments()).map((d) => d.id);
  const passwordHash = await hashPassword(password);
  const now = new Date();
  const created = await db()
    .insert(users)
    .values(
      members.map((m) => ({
        name: m.name,
        lastName: m.lastName,
        email: m.email,
        passwordHash,
        activatedAt: now,
        emailVerifiedAt: now,
        acctType: m.acctType ?? 1,
        roleId: m.acctType === 2 ? 2 : 5,
      })),
    )
    .returning({ id: users.id, email: users.email });
  for (const { id, email } of created) {
    await signDocuments({ userId: id, documentIds, ip: "127.0.0.1", userAgent: "e2e prepare" });
    ids.set(email, id);
  }
  return ids;
}
