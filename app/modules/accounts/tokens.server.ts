import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { CLEANUP_BATCH, deleteInBatches } from "~/db/batched-delete.server";
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
  // A form's single-use key is remembered a day (a resubmission comes within minutes); then the clean-up deletes it.
  idempotency: 24 * 60 * 60,
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
    await tx.delete(oneTimeTokens).where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
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
  const [row] = await tx.select({ userId: oneTimeTokens.userId }).from(oneTimeTokens).where(usable(token, purpose)).limit(1);
  return row?.userId ?? null;
}

/** Uses a token up in one atomic update, so two concurrent requests cannot both succeed. */
export async function consumeToken(tx: Db, token: string, purpose: TokenPurpose): Promise<number | null> {
  const [row] = await tx.update(oneTimeTokens).set({ usedAt: new Date() }).where(usable(token, purpose)).returning({ userId: oneTimeTokens.userId });
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

/**
 * Deletes one-time tokens that can no longer be used: used ones, and expired ones (the daily clean-up, app/modules/
 * jobs/daily-cleanup.server.ts). Issuing a token already retires older unused ones. Returns how many.
 */
export async function deleteSpentTokens(): Promise<number> {
  return deleteInBatches(
    // An idempotency key is "used" from the start and must be remembered until it expires.
    sql`delete from one_time_tokens where id in (select id from one_time_tokens where (used_at is not null and purpose <> 'idempotency') or expires_at < now() limit ${CLEANUP_BATCH})`,
  );
}

/**
 * Uses up a form's idempotency key (a hidden single-use key, as Stripe's API takes one) inside the transaction that
 * does the form's work: true the first time, false when the key was used already (the form was submitted again), so
 * the work is not done twice. If the transaction rolls back, the key is unused again. `scope` names the form.
 */
export async function claimIdempotencyKey(tx: Db, userId: number, scope: string, key: string): Promise<boolean> {
  const [row] = await tx
    .insert(oneTimeTokens)
    .values({
      userId,
      purpose: "idempotency",
      tokenHash: sha256(`${scope}:${userId}:${key}`),
      usedAt: new Date(),
      expiresAt: new Date(Date.now() + TOKEN_TTL_SECONDS.idempotency * 1000),
    })
    .onConflictDoNothing()
    .returning({ id: oneTimeTokens.id });
  return Boolean(row);
}
