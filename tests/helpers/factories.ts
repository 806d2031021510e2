import crypto from "node:crypto";
import { db } from "~/db/client.server";
import { users } from "~/db/schema";
import { hashPassword } from "~/modules/accounts/password.server";
import { listPublishedDocuments, signDocuments } from "~/modules/legal/legal.server";

export const TEST_PASSWORD = "correct horse battery";

export function uniqueEmail(prefix = "user") {
  return `${prefix}-${crypto.randomBytes(5).toString("hex")}@example.test`;
}

/** A verified, active member (or admin) with TEST_PASSWORD. */
export async function createUser(overrides: Partial<typeof users.$inferInsert> = {}) {
  const now = new Date();
  const [user] = await db()
    .insert(users)
    .values({
      name: "Test",
      lastName: "User",
      email: uniqueEmail(),
      passwordHash: await hashPassword(TEST_PASSWORD),
      emailVerifiedAt: now,
      activatedAt: now,
      ...overrides,
    })
    .returning();
  return user!;
}

/** A member who has signed every published legal document (the guards let them in), named `name` Tester. */
export async function createSignedMember(name: string) {
  const user = await createUser({ name, lastName: "Tester", email: uniqueEmail(name.toLowerCase()) });
  const documentIds = (await listPublishedDocuments()).map((d) => d.id);
  await signDocuments({ userId: user.id, documentIds, ip: "127.0.0.1", userAgent: "test" });
  return user;
}
