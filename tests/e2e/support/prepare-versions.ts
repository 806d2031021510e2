/**
 * The accounts of version-accounts.ts, created by prepare.ts in the same database session (before the
 * server starts): one password hash and one insert for all (no mail), then the signatures.
 */
import { db } from "../../../app/db/client.server";
import { users } from "../../../app/db/schema";
import { hashPassword } from "../../../app/modules/accounts/password.server";
import { listPublishedDocuments, signDocuments } from "../../../app/modules/legal/legal.server";
import {
  ANNOUNCE_MEMBERS,
  announceMemberName,
  VERSION_MEMBERS,
  VERSION_PASSWORD,
  versionMemberName,
  type AnnounceMemberKey,
  type VersionMemberKey,
} from "./version-accounts";

export async function prepareVersionAccounts(): Promise<string> {
  const documentIds = (await listPublishedDocuments()).map((d) => d.id);
  const passwordHash = await hashPassword(VERSION_PASSWORD);
  const now = new Date();
  const common = { passwordHash, activatedAt: now, emailVerifiedAt: now, acctType: 1, roleId: 5 };
  const created = await db()
    .insert(users)
    .values([
      ...(Object.entries(VERSION_MEMBERS) as Array<[VersionMemberKey, string]>).map(([key, email]) => ({ ...common, ...pick(versionMemberName(key)), email })),
      ...(Object.entries(ANNOUNCE_MEMBERS) as Array<[AnnounceMemberKey, string]>).map(([key, email]) => ({
        ...common,
        ...pick(announceMemberName(key)),
        email,
      })),
    ])
    .returning({ id: users.id });
  for (const { id } of created) {
    await signDocuments({ userId: id, documentIds, ip: "127.0.0.1", userAgent: "e2e prepare" });
  }
  return `${Object.keys(VERSION_MEMBERS).length} members for versions/ and ${Object.keys(ANNOUNCE_MEMBERS).length} for admin/announcements`;
}

function pick({ name, lastName }: { name: string; lastName: string }) {
  return { name, lastName };
}
