import crypto from "node:crypto";
import { db } from "~/db/client.server";
import { users } from "~/db/schema";
import { hashPassword } from "~/modules/accounts/password.server";

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
