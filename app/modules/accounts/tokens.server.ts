import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { oneTimeTokens, type TokenPurpose } from "~/db/schema";
import { randomToken, sha256 } from "~/modules/security/hash.server";

export const TOKEN_TTL_SECONDS: Record<TokenPurpose, number> = {
  password_reset: 60 * 60,
  email_verification: 24 * 60 * 60,
  email_change: 24 * 60 * 60,
  // The old address's "this was not me" link outlives the change itself, as GitHub's and Google's do (decision 020).
  email_change_cancel: 72 * 60 * 60,
  activation: 7 * 24 * 60 * 60,
};

/**
 * Issues a fresh token (earlier unused ones of the same purpose stop working, except cancel links) and returns its
 * raw value. `newEmail` is the address an email_change token moves into the account once used, or the address an
 * email_change_cancel token puts back.
 */
export async function issueToken(tx: Db, userId: number, purpose: TokenPurpose, newEmail?: string): Promise<string> {
  const token = randomToken();
  // Every email change's cancel link stays usable: a second change must not take the first one's away.
  if (purpose !== "email_change_cancel") {
    await tx
      .delete(oneTimeTokens)
      .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
  }
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

/** A usable email_change_cancel token's account and the address it puts back; null when unusable. */
export async function findEmailChangeCancelToken(tx: Db, token: string): Promise<{ userId: number; oldEmail: string } | null> {
  const [row] = await tx
    .select({ userId: oneTimeTokens.userId, oldEmail: oneTimeTokens.newEmail })
    .from(oneTimeTokens)
    .where(usable(token, "email_change_cancel"))
    .limit(1);
  return row?.oldEmail ? { userId: row.userId, oldEmail: row.oldEmail } : null;
}
