import { eq, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors";
import { users, type User } from "~/db/schema";
import { env } from "~/env.server";
import { actionMail, sendMail } from "~/modules/mail/mailer.server";
import { hitRateLimit } from "~/modules/security/rate-limit.server";
import { limitedAttempt } from "./device-cookie.server";
import { hasValidSignature, signedUrl } from "~/modules/security/signed-url.server";
import { hashPassword, verifyPassword } from "./password.server";
import { revokeUserSessions } from "./session.server";
import { TOKEN_TTL_SECONDS, consumeToken, findEmailChangeToken, findTokenUser, issueToken } from "./tokens.server";

export const ACCT_MEMBER = 1;
export const ACCT_ADMIN = 2;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(email: string, tx: Db = db()): Promise<User | undefined> {
  const [user] = await tx
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${normalizeEmail(email)}`)
    .limit(1);
  return user;
}

export async function findUserById(id: number): Promise<User | undefined> {
  const [user] = await db().select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

// ---------------------------------------------------------------- login

export const INVALID_CREDENTIALS = "These credentials do not match our records.";

export type LoginOutcome =
  { ok: true; user: User } | { ok: false; reason: "invalid" | "rate_limited" | "unverified" | "not_activated" | "suspended"; message: string; status: number };

/**
 * Checks a login attempt, with one generic message for a wrong email or password. Only failures count,
 * in three fixed windows: per address (LOGIN_LIMIT_PER_IP), per account and address together
 * (LOGIN_LIMIT_PER_ACCOUNT, so five wrong passwords from one place do not lock the owner out elsewhere),
 * and per account from anywhere (LOGIN_LIMIT_PER_ACCOUNT_GLOBAL, far higher: it stops a guessing attack
 * spread over many addresses). A success clears only its own account-and-address counter. A browser this
 * account logged in from before (`knownDevice`, its signed device cookie) is counted on its own instead and
 * never refused by those windows, so filling them from many addresses does not lock the owner out
 * (device-cookie.server.ts).
 */
export async function attemptLogin(input: {
  email: string;
  password: string;
  ip: string;
  knownDevice?: (userId: number) => Promise<string | null>;
}): Promise<LoginOutcome> {
  const email = normalizeEmail(input.email);
  const user = await findUserByEmail(email);
  const device = user && input.knownDevice ? await input.knownDevice(user.id) : null;
  const attempt = await limitedAttempt(
    { prefix: "login", account: device ? user!.id : email, ip: input.ip, device, tooMany: (wait) => `Too many login attempts. Please try again in ${wait}.` },
    async () => {
      const passwordOk = await verifyPassword(input.password, user?.passwordHash);
      return Boolean(user) && passwordOk;
    },
  );
  if (!attempt.ok) {
    if (attempt.status === 429) return { ok: false, reason: "rate_limited", status: 429, message: attempt.message };
    return { ok: false, reason: "invalid", status: 400, message: INVALID_CREDENTIALS };
  }
  if (!user) throw new Error("unreachable: a right password without an account");

  if (user.suspendedAt) {
    return {
      ok: false,
      reason: "suspended",
      status: 403,
      message: "This account is suspended. Please contact us if you think this is a mistake.",
    };
  }
  if (!user.activatedAt) {
    return {
      ok: false,
      reason: "not_activated",
      status: 400,
      message: "This account is not activated yet. Use the activation link we emailed you.",
    };
  }
  if (!user.emailVerifiedAt) {
    await sendVerificationEmail(user);
    return {
      ok: false,
      reason: "unverified",
      status: 400,
      message: "Please verify your email address first. We have sent you a new verification link.",
    };
  }
  return { ok: true, user };
}

// ---------------------------------------------------------------- registration and verification

export class EmailTakenError extends Error {
  constructor() {
    super("An account with this email address already exists.");
  }
}

export async function registerMember(
  input: {
    name: string;
    lastName: string;
    email: string;
    password: string;
  },
  /** Runs in the transaction that creates the account (an affiliate referral is bound there, decision 025). */
  options: { onCreated?: (tx: Db, user: User) => Promise<unknown> } = {},
): Promise<User> {
  const passwordHash = await hashPassword(input.password);
  const user = await db().transaction(async (tx) => {
    if (await findUserByEmail(input.email, tx)) throw new EmailTakenError();
    const [created] = await tx
      .insert(users)
      .values({
        name: input.name,
        lastName: input.lastName,
        email: input.email.trim(),
        passwordHash,
        acctType: ACCT_MEMBER,
        roleId: 5,
        activatedAt: new Date(),
      })
      .returning();
    await options.onCreated?.(tx as unknown as Db, created!);
    return created!;
  });
  await sendVerificationEmail(user);
  return user;
}

/**
 * What /register does for an address that already has an account: the visitor is answered exactly as
 * for a new one (no enumeration), and the owner learns that someone tried, with the ways back in.
 */
export async function sendAlreadyRegisteredEmail(email: string): Promise<void> {
  const owner = await findUserByEmail(email);
  if (!owner) return;
  await sendMail(
    actionMail({
      to: owner.email,
      subject: `Someone tried to create a ${env().APP_NAME} account with your address`,
      greetingName: owner.name,
      intro:
        "Someone, perhaps you, tried to create a new account with this email address. You already have an account, so nothing was created. You can log in as usual; if you forgot your password, reset it from the login page.",
      actionLabel: "Log in",
      actionUrl: `${env().APP_URL}/login`,
      outro: `Forgot your password? Reset it at ${env().APP_URL}/forgot-password. If this was not you, you can ignore this message: your account is unchanged.`,
    }),
  );
}

export async function sendVerificationEmail(user: User): Promise<void> {
  const token = await issueToken(db(), user.id, "email_verification");
  const url = signedUrl(`/email-verify/${user.id}/${token}`, TOKEN_TTL_SECONDS.email_verification);
  await sendMail(
    actionMail({
      to: user.email,
      subject: `Verify your email address for ${env().APP_NAME}`,
      greetingName: user.name,
      intro: "Please confirm that this is your email address.",
      actionLabel: "Verify email address",
      actionUrl: url,
      outro: "The link works for 24 hours. If you did not create an account, you can ignore this message.",
    }),
  );
}

export type VerifyEmailResult = "verified" | "email_changed" | "email_taken" | "invalid_signature" | "invalid_link";

/**
 * Opens a signed /email-verify/{id}/{token} link: the signature first, then the one-time token for that user.
 * An email_verification token marks the address verified; an email_change token (profile.server.ts) moves
 * its new address into the account, verified, unless another account took that address meanwhile
 * ("email_taken": nothing changes and the link stays usable should the address become free).
 */
export async function verifyEmail(input: { userId: number; token: string; url: string }): Promise<VerifyEmailResult> {
  if (!hasValidSignature(input.url)) return "invalid_signature";
  try {
    return await db().transaction(async (tx): Promise<VerifyEmailResult> => {
      const now = new Date();
      const owner = await findTokenUser(tx, input.token, "email_verification");
      if (owner !== null) {
        if (owner !== input.userId) return "invalid_link";
        await consumeToken(tx, input.token, "email_verification");
        await tx.update(users).set({ emailVerifiedAt: now, updatedAt: now }).where(eq(users.id, owner));
        return "verified";
      }
      const change = await findEmailChangeToken(tx, input.token);
      if (!change || change.userId !== input.userId) return "invalid_link";
      const holder = await findUserByEmail(change.newEmail, tx);
      if (holder && holder.id !== change.userId) return "email_taken";
      if ((await consumeToken(tx, input.token, "email_change")) !== change.userId) return "invalid_link";
      await tx.update(users).set({ email: change.newEmail, emailVerifiedAt: now, updatedAt: now }).where(eq(users.id, change.userId));
      return "email_changed";
    });
  } catch (error) {
    // Another account registered the address between our check and the update (unique lower(email)).
    if (isUniqueViolation(error)) return "email_taken";
    throw error;
  }
}

// ---------------------------------------------------------------- password reset

/** Emails a reset link when the address belongs to an account. Says nothing either way. */
export async function requestPasswordReset(email: string, ip: string): Promise<void> {
  const limit = await hitRateLimit(`forgot:ip:${ip}`, 20, 60 * 60);
  if (!limit.allowed) return;
  const user = await findUserByEmail(email);
  if (!user) return;
  const token = await issueToken(db(), user.id, "password_reset");
  const url = signedUrl(`/password-reset/${token}`, TOKEN_TTL_SECONDS.password_reset);
  await sendMail(
    actionMail({
      to: user.email,
      subject: `Reset your ${env().APP_NAME} password`,
      greetingName: user.name,
      intro: "We received a request to reset the password of your account.",
      actionLabel: "Choose a new password",
      actionUrl: url,
      outro: "The link works once, for 60 minutes. If you did not ask for it, you can ignore this message.",
    }),
  );
}

export type TokenLinkCheck = "valid" | "invalid_signature" | "invalid_link";

/** Checks a signed token link without using it up (to decide whether to show its form). */
export async function checkTokenLink(url: string, token: string, purpose: "password_reset" | "activation"): Promise<TokenLinkCheck> {
  if (!hasValidSignature(url)) return "invalid_signature";
  return (await findTokenUser(db(), token, purpose)) ? "valid" : "invalid_link";
}

/** Sets a new password from a single-use token; every existing session of that user ends. */
export async function resetPassword(input: { token: string; url: string; password: string }): Promise<TokenLinkCheck> {
  return setPasswordFromToken(input, "password_reset");
}

// ---------------------------------------------------------------- activation (accounts created for someone)

/** Creates an account without a password (by an administrator or an invitation) and emails its activation link. */
export async function createPendingAccount(input: {
  name: string;
  lastName: string;
  email: string;
  acctType?: number;
  roleId?: number;
  invitedBy?: string;
}): Promise<User> {
  const user = await db().transaction(async (tx) => {
    if (await findUserByEmail(input.email, tx)) throw new EmailTakenError();
    const [created] = await tx
      .insert(users)
      .values({
        name: input.name,
        lastName: input.lastName,
        email: input.email.trim(),
        acctType: input.acctType ?? ACCT_MEMBER,
        roleId: input.roleId ?? 5,
      })
      .returning();
    return created!;
  });
  await sendActivationEmail(user, input.invitedBy);
  return user;
}

export async function sendActivationEmail(user: User, invitedBy?: string): Promise<string> {
  const token = await issueToken(db(), user.id, "activation");
  const url = signedUrl("/activate-account", TOKEN_TTL_SECONDS.activation, { token });
  await sendMail(
    actionMail({
      to: user.email,
      subject: `Activate your ${env().APP_NAME} account`,
      greetingName: user.name,
      intro: `${invitedBy ?? `The ${env().APP_NAME} team`} created an account for you. Choose a password to start.`,
      actionLabel: "Activate my account",
      actionUrl: url,
      outro: "The link works once, for 7 days.",
    }),
  );
  return url;
}

/** Sets the first password of a pending account; the link proves the email address too. */
export async function activateAccount(input: { token: string; url: string; password: string }): Promise<TokenLinkCheck> {
  return setPasswordFromToken(input, "activation");
}

async function setPasswordFromToken(
  input: { token: string; url: string; password: string },
  purpose: "password_reset" | "activation",
): Promise<TokenLinkCheck> {
  if (!hasValidSignature(input.url)) return "invalid_signature";
  const passwordHash = await hashPassword(input.password);
  const userId = await db().transaction(async (tx) => {
    const owner = await consumeToken(tx, input.token, purpose);
    if (!owner) return null;
    const now = new Date();
    await tx
      .update(users)
      .set({
        passwordHash,
        updatedAt: now,
        emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now})`,
        activatedAt: sql`coalesce(${users.activatedAt}, ${now})`,
      })
      .where(eq(users.id, owner));
    return owner;
  });
  if (!userId) return "invalid_link";
  await revokeUserSessions(userId);
  return "valid";
}
