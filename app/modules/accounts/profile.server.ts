import { and, desc, eq, gt, inArray, isNull } from "drizzle-orm";
import { db } from "~/db/client.server";
import { oneTimeTokens, users, type User } from "~/db/schema";
import { env } from "~/env.server";
import { commitStoredImage, deleteImage, imageVariantPath, storeImage, type ImageUpload } from "~/modules/images/images.server";
import { actionMail, sendMail } from "~/modules/mail/mailer.server";
import { describeWait, hitRateLimit, peekRateLimit, resetRateLimit } from "~/modules/security/rate-limit.server";
import { hasValidSignature, signedUrl } from "~/modules/security/signed-url.server";
import { notifyAdmins } from "~/modules/notifications/notifications.server";
import { isUniqueViolation } from "~/db/errors";
import { EmailTakenError, findUserByEmail, normalizeEmail } from "./accounts.server";
import { hashPassword, verifyPassword } from "./password.server";
import { revokeUserSessions } from "./session.server";
import { TOKEN_TTL_SECONDS, consumeToken, findEmailChangeCancelToken, issueToken } from "./tokens.server";

/**
 * The account page (/member/{id}/profile): names, email (re-verified), password and avatar.
 * Callers check who may act on which member (guards.server.ts); these functions take the member's id.
 */

export const EMAIL_CHANGE_LIMIT = { count: 5, windowSeconds: 60 * 60 };
export const PASSWORD_CHANGE_FAILURES = { count: 5, windowSeconds: 15 * 60 };

export interface AccountDetails {
  id: number;
  name: string;
  lastName: string;
  email: string;
  avatarImg: string | null;
  /** The small (64x64) variant of the avatar, for lists. */
  avatarSmallImg: string | null;
  /** An address waiting for its confirmation link to be opened, if any. */
  pendingEmail: string | null;
  /** Changes whenever the account is saved: the page keys its forms on it so they start afresh. */
  version: string;
}

/** A refusal the user can act on; `field` says which form field it belongs beside. */
export class ProfileError extends Error {
  constructor(
    message: string,
    readonly field: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = "ProfileError";
  }
}

export async function loadAccountDetails(memberId: number): Promise<AccountDetails | null> {
  const [user] = await db().select().from(users).where(eq(users.id, memberId)).limit(1);
  if (!user) return null;
  return {
    id: user.id,
    name: user.name,
    lastName: user.lastName,
    email: user.email,
    avatarImg: user.avatarImg,
    avatarSmallImg: user.avatarImg ? imageVariantPath(user.avatarImg, "avatar", "64x64") : null,
    pendingEmail: await pendingEmailChange(memberId),
    version: user.updatedAt.getTime().toString(36),
  };
}

/** The address of the newest usable email_change link, or null. */
export async function pendingEmailChange(memberId: number): Promise<string | null> {
  const [row] = await db()
    .select({ newEmail: oneTimeTokens.newEmail })
    .from(oneTimeTokens)
    .where(
      and(eq(oneTimeTokens.userId, memberId), eq(oneTimeTokens.purpose, "email_change"), isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, new Date())),
    )
    .orderBy(desc(oneTimeTokens.createdAt))
    .limit(1);
  return row?.newEmail ?? null;
}

async function findMember(memberId: number): Promise<User> {
  const [user] = await db().select().from(users).where(eq(users.id, memberId)).limit(1);
  if (!user) throw new Error(`No user ${memberId}`);
  return user;
}

// ---------------------------------------------------------------- names and email

export interface NamesAndEmailResult {
  /** Set when a confirmation link went to a new address; the account keeps its email until it is opened. */
  pendingEmail: string | null;
}

/** Whether `email` would change the member's login address (the same address in another case does not). */
export async function changesLoginEmail(memberId: number, email: string): Promise<boolean> {
  const user = await findMember(memberId);
  return normalizeEmail(email) !== normalizeEmail(user.email);
}

/**
 * Saves the names; a different email address is not saved but sent a signed confirmation link (24 h), and the
 * current address is told, with a link that cancels the change (72 h, also once it is done: decision 020).
 * An address another account uses is answered exactly like a free one (no enumeration): its holder is told
 * someone tried it, and the confirmation link goes nowhere. Attempts are counted before any lookup. Typing the
 * same address in another case just saves it.
 */
export async function updateNamesAndEmail(memberId: number, input: { name: string; lastName: string; email: string }): Promise<NamesAndEmailResult> {
  const user = await findMember(memberId);
  const email = input.email.trim();
  const sameAddress = normalizeEmail(email) === normalizeEmail(user.email);
  let holder: User | undefined;
  if (!sameAddress) {
    const limit = await hitRateLimit(`email-change:user:${memberId}`, EMAIL_CHANGE_LIMIT.count, EMAIL_CHANGE_LIMIT.windowSeconds);
    if (!limit.allowed) {
      throw new ProfileError(`Too many email changes were asked for. Please try again in ${describeWait(limit.retryAfterSeconds)}.`, "email", 429);
    }
    holder = await findUserByEmail(email);
  }

  const appName = env().APP_NAME;
  let changing: boolean;
  try {
    changing = await db().transaction(async (tx) => {
      await tx
        .update(users)
        .set({ name: input.name, lastName: input.lastName, ...(sameAddress ? { email } : {}), updatedAt: new Date() })
        .where(eq(users.id, memberId));
      if (sameAddress) return false;
      const tokens = {
        confirm: await issueToken(tx, memberId, "email_change", email),
        cancel: await issueToken(tx, memberId, "email_change_cancel", user.email),
      };
      // The mails are queued in the transaction that issues their links: both exist, or neither.
      if (holder && holder.id !== memberId) {
        // Taken: its holder learns someone tried it; the requester sees what a free address gives.
        await sendMail(
          actionMail({
            to: holder.email,
            subject: `Someone tried to move another ${appName} account to your address`,
            greetingName: holder.name,
            intro: `Someone asked to use this email address for another ${appName} account. It is already yours, so nothing changed and no link was sent.`,
            actionLabel: "Log in",
            actionUrl: `${env().APP_URL}/login`,
            outro: "You do not need to do anything. If you keep getting these, contact us.",
          }),
          { tx },
        );
      } else if (!holder) {
        const url = signedUrl(`/email-verify/${memberId}/${tokens.confirm}`, TOKEN_TTL_SECONDS.email_change);
        await sendMail(
          actionMail({
            to: email,
            subject: `Confirm your new email address for ${appName}`,
            greetingName: input.name,
            intro: `Please confirm that you want to use this address for your ${appName} account. Until you do, the account keeps using ${user.email}.`,
            actionLabel: "Confirm new email address",
            actionUrl: url,
            outro: "The link works for 24 hours. If you did not ask for this change, you can ignore this message.",
          }),
          { tx },
        );
      }
      await sendMail(
        actionMail({
          to: user.email,
          subject: `A change of email address was requested for your ${appName} account`,
          greetingName: user.name,
          intro: `We received a request to use ${email} as the email address of your ${appName} account. Nothing changes unless the link we sent to that address is opened.`,
          actionLabel: "This was not me: cancel the change",
          actionUrl: signedUrl(emailChangeCancelPath(tokens.cancel), TOKEN_TTL_SECONDS.email_change_cancel),
          outro:
            "The link works for 72 hours, even after the new address is confirmed: it keeps (or puts back) this address and signs every session of the account out. Then choose a new password with “Forgot your password?”.",
        }),
        { tx },
      );
      return true;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new EmailTakenError();
    throw error;
  }
  if (!changing) return { pendingEmail: null };
  return { pendingEmail: email };
}

export const emailChangeCancelPath = (token: string) => `/email-change-cancel/${token}`;

export type EmailChangeCancelCheck = { ok: true; oldEmail: string } | { ok: false; reason: "invalid_signature" | "invalid_link" };

/** Checks an old address's cancel link without using it (opening it changes nothing: mail scanners open links). */
export async function checkEmailChangeCancel(token: string, url: string): Promise<EmailChangeCancelCheck> {
  if (!hasValidSignature(url)) return { ok: false, reason: "invalid_signature" };
  const found = await findEmailChangeCancelToken(db(), token);
  return found ? { ok: true, oldEmail: found.oldEmail } : { ok: false, reason: "invalid_link" };
}

export type EmailChangeCancelOutcome =
  { ok: true; oldEmail: string; restored: boolean; addressTaken: boolean } | { ok: false; reason: "invalid_signature" | "invalid_link" };

/**
 * The old address's "this was not me" (decision 020): used once, it withdraws every pending change and password
 * reset link of the account, puts the old address back if the change went through (unless another account has
 * taken it since), signs every session of the account out, and tells the administrators.
 */
export async function cancelEmailChangeFromLink(token: string, url: string): Promise<EmailChangeCancelOutcome> {
  if (!hasValidSignature(url)) return { ok: false, reason: "invalid_signature" };
  const done = await db().transaction(async (tx) => {
    const found = await findEmailChangeCancelToken(tx, token);
    if (!found) return null;
    if ((await consumeToken(tx, token, "email_change_cancel")) !== found.userId) return null;
    const userId = found.userId;
    await tx
      .delete(oneTimeTokens)
      .where(and(eq(oneTimeTokens.userId, userId), inArray(oneTimeTokens.purpose, ["email_change", "password_reset"]), isNull(oneTimeTokens.usedAt)));
    const [account] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
    if (!account) return null;
    let restored = false;
    let addressTaken = false;
    if (normalizeEmail(account.email) !== normalizeEmail(found.oldEmail)) {
      const holder = await findUserByEmail(found.oldEmail, tx);
      if (holder && holder.id !== userId) addressTaken = true;
      else {
        const now = new Date();
        await tx.update(users).set({ email: found.oldEmail, emailVerifiedAt: now, updatedAt: now }).where(eq(users.id, userId));
        restored = true;
      }
    }
    return { userId, oldEmail: found.oldEmail, restored, addressTaken, account };
  });
  if (!done) return { ok: false, reason: "invalid_link" };
  await revokeUserSessions(done.userId);
  try {
    await notifyAdmins({
      type: "EmailChangeReported",
      color: "red",
      message: `${done.account.name} ${done.account.lastName} (${done.oldEmail}) reports an email change they did not make${done.restored ? `: the address is back from ${done.account.email}` : done.addressTaken ? `; ${done.oldEmail} is now another account's, so it could not be put back` : ""}. Every session was signed out; check the account with them.`,
      routeName: "admin-member",
      resourceId: done.userId,
    });
  } catch (error) {
    // The change is undone and the sessions are ended; a failed live push must not hide that from the member.
    console.error(JSON.stringify({ level: "error", message: "email change report: notifying admins failed", error: String(error) }));
  }
  return { ok: true, oldEmail: done.oldEmail, restored: done.restored, addressTaken: done.addressTaken };
}

/** Withdraws a pending email change: its link stops working. */
export async function cancelEmailChange(memberId: number): Promise<void> {
  await db()
    .delete(oneTimeTokens)
    .where(and(eq(oneTimeTokens.userId, memberId), eq(oneTimeTokens.purpose, "email_change"), isNull(oneTimeTokens.usedAt)));
}

// ---------------------------------------------------------------- password

/**
 * Changes a user's own password after checking the current one, then ends every other session of that
 * user (the one making the change stays signed in). Wrong current passwords are limited per user.
 */
export async function changePassword(userId: number, input: { currentPassword: string; password: string }, keepSessionId: string): Promise<void> {
  const key = `password-change:user:${userId}`;
  const { count, windowSeconds } = PASSWORD_CHANGE_FAILURES;
  const limit = await peekRateLimit(key, count, windowSeconds);
  if (!limit.allowed) {
    throw new ProfileError(`Too many wrong passwords. Please try again in ${describeWait(limit.retryAfterSeconds)}.`, "currentPassword", 429);
  }
  const user = await findMember(userId);
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    await hitRateLimit(key, count, windowSeconds);
    throw new ProfileError("That is not your current password.", "currentPassword");
  }
  await resetRateLimit(key);
  const passwordHash = await hashPassword(input.password);
  await db().update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
  await revokeUserSessions(userId, keepSessionId);
}

// ---------------------------------------------------------------- avatar

/**
 * Stores a new avatar (ImageUploadError for a file we refuse: then nothing changes), points the account
 * at its 256x256 variant and deletes the previous avatar's files. Returns the new path.
 */
export async function updateAvatar(memberId: number, upload: ImageUpload | null | undefined): Promise<string> {
  const stored = await storeImage("avatar", upload);
  const avatarImg = stored.paths["256x256"];
  await commitStoredImage(stored, () => swapAvatar(memberId, avatarImg));
  return avatarImg;
}

/** Clears the avatar and deletes its files. */
export async function removeAvatar(memberId: number): Promise<void> {
  await deleteImage(await swapAvatar(memberId, null));
}

/** Sets users.avatar_img and returns the value it replaced (read under a row lock). */
async function swapAvatar(memberId: number, avatarImg: string | null): Promise<string | null> {
  return db().transaction(async (tx) => {
    const [row] = await tx.select({ avatarImg: users.avatarImg }).from(users).where(eq(users.id, memberId)).for("update");
    if (!row) throw new Error(`No user ${memberId}`);
    await tx.update(users).set({ avatarImg, updatedAt: new Date() }).where(eq(users.id, memberId));
    return row.avatarImg;
  });
}
