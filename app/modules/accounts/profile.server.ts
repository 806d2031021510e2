import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { db } from "~/db/client.server";
import { oneTimeTokens, users, type User } from "~/db/schema";
import { env } from "~/env.server";
import { commitStoredImage, deleteImage, imageVariantPath, storeImage, type ImageUpload } from "~/modules/images/images.server";
import { actionMail, sendMail } from "~/modules/mail/mailer.server";
import { describeWait, hitRateLimit, peekRateLimit, resetRateLimit } from "~/modules/security/rate-limit.server";
import { signedUrl } from "~/modules/security/signed-url.server";
import { isUniqueViolation } from "~/db/errors";
import { EmailTakenError, findUserByEmail, normalizeEmail } from "./accounts.server";
import { hashPassword, verifyPassword } from "./password.server";
import { revokeUserSessions } from "./session.server";
import { TOKEN_TTL_SECONDS, issueToken } from "./tokens.server";

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
      and(
        eq(oneTimeTokens.userId, memberId),
        eq(oneTimeTokens.purpose, "email_change"),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, new Date()),
      ),
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

/**
 * Saves the names; a different email address is not saved but sent a signed confirmation link (24 h),
 * and the current address is told about the request. An address another account uses is refused
 * (EmailTakenError) and nothing is saved. Typing the same address in another case just saves it.
 */
export async function updateNamesAndEmail(
  memberId: number,
  input: { name: string; lastName: string; email: string },
): Promise<NamesAndEmailResult> {
  const user = await findMember(memberId);
  const email = input.email.trim();
  const sameAddress = normalizeEmail(email) === normalizeEmail(user.email);
  if (!sameAddress) {
    const holder = await findUserByEmail(email);
    if (holder && holder.id !== memberId) throw new EmailTakenError();
    const limit = await hitRateLimit(`email-change:user:${memberId}`, EMAIL_CHANGE_LIMIT.count, EMAIL_CHANGE_LIMIT.windowSeconds);
    if (!limit.allowed) {
      throw new ProfileError(
        `Too many email changes were asked for. Please try again in ${describeWait(limit.retryAfterSeconds)}.`,
        "email",
        429,
      );
    }
  }

  let token: string | null;
  try {
    token = await db().transaction(async (tx) => {
      await tx
        .update(users)
        .set({ name: input.name, lastName: input.lastName, ...(sameAddress ? { email } : {}), updatedAt: new Date() })
        .where(eq(users.id, memberId));
      return sameAddress ? null : issueToken(tx, memberId, "email_change", email);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new EmailTakenError();
    throw error;
  }
  if (!token) return { pendingEmail: null };

  const appName = env().APP_NAME;
  const url = signedUrl(`/email-verify/${memberId}/${token}`, TOKEN_TTL_SECONDS.email_change);
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
  );
  await sendMail(
    actionMail({
      to: user.email,
      subject: `A change of email address was requested for your ${appName} account`,
      greetingName: user.name,
      intro: `We received a request to use ${email} as the email address of your ${appName} account. Nothing changes unless the link we sent to that address is opened.`,
      actionLabel: "Review your account",
      actionUrl: `${env().APP_URL}/member/${memberId}/profile`,
      outro: "If this was not you, change your password now: that also ends every other session.",
    }),
  );
  return { pendingEmail: email };
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
export async function changePassword(
  userId: number,
  input: { currentPassword: string; password: string },
  keepSessionId: string,
): Promise<void> {
  const key = `password-change:user:${userId}`;
  const { count, windowSeconds } = PASSWORD_CHANGE_FAILURES;
  const limit = await peekRateLimit(key, count, windowSeconds);
  if (!limit.allowed) {
    throw new ProfileError(
      `Too many wrong passwords. Please try again in ${describeWait(limit.retryAfterSeconds)}.`,
      "currentPassword",
      429,
    );
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
    const [row] = await tx
      .select({ avatarImg: users.avatarImg })
      .from(users)
      .where(eq(users.id, memberId))
      .for("update");
    if (!row) throw new Error(`No user ${memberId}`);
    await tx.update(users).set({ avatarImg, updatedAt: new Date() }).where(eq(users.id, memberId));
    return row.avatarImg;
  });
}
