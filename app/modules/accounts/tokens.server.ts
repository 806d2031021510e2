import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { oneTimeTokens, type TokenPurpose } from "~/db/schema";
import { randomToken, sha256 } from "~/modules/security/hash.server";

export const TOKEN_TTL_SECONDS: Record<TokenPurpose, number> = {
  password_reset: 60 * 60,
  email_verification: 24 * 60 * 60,
  email_change: 24 * 60 * 60,
  activation: 7 * 24 * 60 * 60,
};

/**
 * Issues a fresh token (earlier unused ones of the same purpose stop working) and returns its raw value.
 * `newEmail` is the address an email_change token moves into the account once used.
 */
export async function issueToken(tx: Db, userId: number, purpose: TokenPurpose, newEmail?: string): Promise<string> {
  const token = randomToken();
  await tx
    .delete(oneTimeTokens)
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
  await tx.insert(oneTimeTokens).values({
    userId,
    purpose,
    newEmail: newEmail ?? null,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + TOKEN_TTL_SECONDS[purpose] * 1000),
  });
  return token;
}

function usable(token: string, purpose: TokenPurpose) {
  return and(
    eq(oneTimeTokens.tokenHash, sha256(token)),
    eq(oneTimeTokens.purpose, purpose),
    isNull(oneTimeTokens.usedAt),
    gt(oneTimeTokens.expiresAt, new Date()),
  );
}

/** The user a token belongs to, without using it up; null when unknown, used or expired. */
export async function findTokenUser(tx: Db, token: string, purpose: TokenPurpose): Promise<number | null> {
  const [row] = await tx
    .select({ userId: oneTimeTokens.userId })
    .from(oneTimeTokens)
    .where(usable(token, purpose))
    .limit(1);
  return row?.userId ?? null;
}

/** Uses a token up in one atomic update, so two concurrent requests cannot both succeed. */
export async function consumeToken(tx: Db, token: string, purpose: TokenPurpose): Promise<number | null> {
  const [row] = await tx
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(usable(token, purpose))
    .returning({ userId: oneTimeTokens.userId });
  return row?.userId ?? null;
}

/** The owner of a usable email_change token and the address it moves into the account; null when unusable. */
export async function findEmailChangeToken(tx: Db, token: string): Promise<{ userId: number; newEmail: string } | null> {
  const [row] = await tx
    .select({ userId: oneTimeTokens.userId, newEmail: oneTimeTokens.newEmail })
    .from(oneTimeTokens)
    .where(usable(token, "email_change"))
    .limit(1);
  return row?.newEmail ? { userId: row.userId, newEmail: row.newEmail } : null;
}
