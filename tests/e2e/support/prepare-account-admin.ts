/**
 * The accounts of account-admin-accounts.ts, created by prepare.ts in the same database session
 * (before the server starts). Uses the app's own functions, so passwords and tokens are real.
 */
import { eq } from "drizzle-orm";
import { db } from "../../../app/db/client.server";
import { users } from "../../../app/db/schema";
import { createPendingAccount, registerMember } from "../../../app/modules/accounts/accounts.server";
import { hashPassword } from "../../../app/modules/accounts/password.server";
import { listPublishedDocuments, signDocuments } from "../../../app/modules/legal/legal.server";
import { BULK_COUNT, bulkMember, PENDING_RESEND, READY, READY_PASSWORD, readyName, UNVERIFIED_RESEND, type ReadyKey } from "./account-admin-accounts";

export async function prepareAccountAdminAccounts(): Promise<string> {
  const documentIds = (await listPublishedDocuments()).map((d) => d.id);
  for (const [key, email] of Object.entries(READY) as Array<[ReadyKey, string]>) {
    const { name, lastName } = readyName(key);
    const user = await registerMember({ name, lastName, email, password: READY_PASSWORD });
    await db().update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
    await signDocuments({ userId: user.id, documentIds, ip: "127.0.0.1", userAgent: "e2e prepare" });
  }

  const [uName, uLast] = UNVERIFIED_RESEND.fullname.split(" ") as [string, string];
  const unverified = await registerMember({ name: uName, lastName: uLast, email: UNVERIFIED_RESEND.email, password: READY_PASSWORD });
  await signDocuments({ userId: unverified.id, documentIds, ip: "127.0.0.1", userAgent: "e2e prepare" });

  const [pName, pLast] = PENDING_RESEND.fullname.split(" ") as [string, string];
  await createPendingAccount({ name: pName, lastName: pLast, email: PENDING_RESEND.email, invitedBy: "The e2e suite" });

  // No mail for these: they only fill the list.
  const passwordHash = await hashPassword(READY_PASSWORD);
  const now = new Date();
  await db()
    .insert(users)
    .values(
      Array.from({ length: BULK_COUNT }, (_, i) => {
        const m = bulkMember(i + 1);
        return { name: m.name, lastName: m.lastName, email: m.email, passwordHash, acctType: 1, roleId: 5, activatedAt: now, emailVerifiedAt: now };
      }),
    );
  return `${Object.keys(READY).length} ready, 1 unverified, 1 pending and ${BULK_COUNT} bulk accounts for account/ and admin/`;
}
