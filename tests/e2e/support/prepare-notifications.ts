/**
 * The accounts of notification-accounts.ts, created by prepare.ts in the same database session
 * (before the server starts): one password hash and one insert for all (no mail), then the signatures.
 */
import { db } from "../../../app/db/client.server";
import { users } from "../../../app/db/schema";
import { hashPassword } from "../../../app/modules/accounts/password.server";
import { listPublishedDocuments, signDocuments } from "../../../app/modules/legal/legal.server";
import { NOTIFY, NOTIFY_ADMIN, NOTIFY_PASSWORD, notifyName, type NotifyKey } from "./notification-accounts";

export async function prepareNotificationAccounts(): Promise<string> {
  const documentIds = (await listPublishedDocuments()).map((d) => d.id);
  const passwordHash = await hashPassword(NOTIFY_PASSWORD);
  const now = new Date();
  const common = { passwordHash, activatedAt: now, emailVerifiedAt: now };
  const created = await db()
    .insert(users)
    .values([
      ...(Object.entries(NOTIFY) as Array<[NotifyKey, string]>).map(([key, email]) => {
        const { name, lastName } = notifyName(key);
        return { ...common, name, lastName, email, acctType: 1, roleId: 5 };
      }),
      { ...common, name: NOTIFY_ADMIN.name, lastName: NOTIFY_ADMIN.lastName, email: NOTIFY_ADMIN.email, acctType: 2, roleId: 2 },
    ])
    .returning({ id: users.id });
  for (const { id } of created) {
    await signDocuments({ userId: id, documentIds, ip: "127.0.0.1", userAgent: "e2e prepare" });
  }
  return `${Object.keys(NOTIFY).length} members and 1 administrator for notifications/`;
}
