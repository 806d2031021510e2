import crypto from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import { db } from "~/db/client.server";
import { twoFactorRecoveryCodes, twoFactors, type User } from "~/db/schema";
import { env } from "~/env.server";
import { actionMail, sendMail } from "~/modules/mail/mailer.server";
import { sha256 } from "~/modules/security/hash.server";
import { seal, unseal } from "~/modules/security/sealed.server";

/**
 * TOTP two-factor authentication (step-up security, decision 019), with otplib (RFC 6238: SHA-1,
 * 6 digits, 30-second steps, one step of drift either way). The secret is sealed at rest; a code's time step
 * is remembered so the same code is accepted once. Ten recovery codes, stored as SHA-256, each used once.
 */

export const RECOVERY_CODE_COUNT = 10;
const WHAT = "Two-factor secrets";
const aad = (userId: number) => `two_factors:${userId}`;

export class TwoFactorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TwoFactorError";
  }
}

export interface TwoFactorState {
  enabled: boolean;
  /** A secret was issued and awaits its first code. */
  enrolling: boolean;
  recoveryCodesLeft: number;
}

export async function twoFactorState(userId: number): Promise<TwoFactorState> {
  const [row] = await db()
    .select({
      enabledAt: twoFactors.enabledAt,
      left: sql<number>`(select count(*)::int from two_factor_recovery_codes c where c.user_id = ${userId} and c.used_at is null)`,
    })
    .from(twoFactors)
    .where(eq(twoFactors.userId, userId));
  if (!row) return { enabled: false, enrolling: false, recoveryCodesLeft: 0 };
  return { enabled: row.enabledAt !== null, enrolling: row.enabledAt === null, recoveryCodesLeft: Number(row.left) };
}

export async function hasTwoFactor(userId: number): Promise<boolean> {
  const [row] = await db()
    .select({ userId: twoFactors.userId })
    .from(twoFactors)
    .where(and(eq(twoFactors.userId, userId), sql`${twoFactors.enabledAt} is not null`));
  return Boolean(row);
}

/** Issues a new secret to enrol (replacing an unconfirmed one). Refused while two-factor is on. */
export async function startEnrolment(userId: number): Promise<void> {
  const secretEncrypted = seal(generateSecret(), aad(userId), WHAT);
  const [row] = await db()
    .insert(twoFactors)
    .values({ userId, secretEncrypted })
    .onConflictDoUpdate({
      target: twoFactors.userId,
      set: { secretEncrypted, lastUsedStep: null, updatedAt: new Date() },
      setWhere: isNull(twoFactors.enabledAt),
    })
    .returning({ userId: twoFactors.userId });
  if (!row) throw new TwoFactorError("Two-factor authentication is already on.");
}

export interface Enrolment {
  secret: string;
  uri: string;
  qrSvg: string;
}

/** The pending secret, to show as text, as an otpauth URI and as a QR code; null when not enrolling. */
export async function pendingEnrolment(user: Pick<User, "id" | "email">): Promise<Enrolment | null> {
  const [row] = await db()
    .select()
    .from(twoFactors)
    .where(and(eq(twoFactors.userId, user.id), isNull(twoFactors.enabledAt)));
  if (!row) return null;
  const secret = unseal(row.secretEncrypted, aad(user.id), WHAT);
  const uri = generateURI({ issuer: env().APP_NAME, label: user.email, secret });
  const qrSvg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { secret, uri, qrSvg };
}

const TOTP_FORMAT = /^[0-9]{6}$/;

/** Codes are typed with spaces or dashes at times; recovery codes are case-insensitive. */
export function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, "").toLowerCase();
}

/**
 * Checks a TOTP code against the secret and takes its time step atomically: a code whose step is not after
 * the last one accepted (a replay, or an older code) fails, even from two requests at once.
 */
async function takeTotp(userId: number, code: string, options: { enrolling: boolean; now?: number }): Promise<boolean> {
  if (!TOTP_FORMAT.test(code)) return false;
  const [row] = await db()
    .select()
    .from(twoFactors)
    .where(and(eq(twoFactors.userId, userId), options.enrolling ? isNull(twoFactors.enabledAt) : sql`${twoFactors.enabledAt} is not null`));
  if (!row) return false;
  const secret = unseal(row.secretEncrypted, aad(userId), WHAT);
  const result = await verify({
    secret,
    token: code,
    epochTolerance: 30,
    ...(options.now !== undefined ? { epoch: options.now } : {}),
    ...(row.lastUsedStep !== null ? { afterTimeStep: row.lastUsedStep } : {}),
  });
  if (!result.valid || !("timeStep" in result)) return false;
  const step = result.timeStep;
  const now = new Date();
  const [taken] = await db()
    .update(twoFactors)
    .set({ lastUsedStep: step, updatedAt: now, ...(options.enrolling ? { enabledAt: now } : {}) })
    .where(
      and(
        eq(twoFactors.userId, userId),
        eq(twoFactors.secretEncrypted, row.secretEncrypted),
        sql`(${twoFactors.lastUsedStep} is null or ${twoFactors.lastUsedStep} < ${step})`,
      ),
    )
    .returning({ userId: twoFactors.userId });
  return Boolean(taken);
}

/** Turns two-factor on with the first code from the app; returns the ten recovery codes (shown once). */
export async function confirmEnrolment(userId: number, code: string, options: { now?: number } = {}): Promise<string[]> {
  if (!(await takeTotp(userId, normalizeCode(code), { enrolling: true, now: options.now }))) {
    throw new TwoFactorError("That code is not right. Enter the 6-digit code your app shows now.");
  }
  return regenerateRecoveryCodes(userId);
}

/** A second factor for a user with two-factor on: a TOTP code, or an unused recovery code (used up). */
export async function verifySecondFactor(userId: number, input: string, options: { now?: number } = {}): Promise<"totp" | "recovery" | null> {
  const code = normalizeCode(input);
  if (!code || code.length > 40) return null;
  if (TOTP_FORMAT.test(code)) return (await takeTotp(userId, code, { enrolling: false, now: options.now })) ? "totp" : null;
  if (!(await hasTwoFactor(userId))) return null;
  const [used] = await db()
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(twoFactorRecoveryCodes.userId, userId), eq(twoFactorRecoveryCodes.codeHash, sha256(code)), isNull(twoFactorRecoveryCodes.usedAt)))
    .returning({ id: twoFactorRecoveryCodes.id });
  return used ? "recovery" : null;
}

/** A current TOTP code only (no recovery code), for a user with two-factor on; the code is used up. */
export async function verifyTotp(userId: number, input: string, options: { now?: number } = {}): Promise<boolean> {
  return takeTotp(userId, normalizeCode(input), { enrolling: false, now: options.now });
}

const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"; // no 0/o, 1/l/i

function recoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[crypto.randomInt(ALPHABET.length)]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** Replaces every recovery code with ten new ones; the old ones stop working. Two-factor must be on. */
export async function regenerateRecoveryCodes(userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
  await db().transaction(async (tx) => {
    const [on] = await tx
      .select({ userId: twoFactors.userId })
      .from(twoFactors)
      .where(and(eq(twoFactors.userId, userId), sql`${twoFactors.enabledAt} is not null`))
      .for("update");
    if (!on) throw new TwoFactorError("Two-factor authentication is not on.");
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    await tx.insert(twoFactorRecoveryCodes).values(codes.map((code) => ({ userId, codeHash: sha256(normalizeCode(code)) })));
  });
  return codes;
}

/** Turns two-factor off (or abandons an enrolment): the secret and the recovery codes are deleted. */
export async function disableTwoFactor(userId: number): Promise<void> {
  await db().transaction(async (tx) => {
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    await tx.delete(twoFactors).where(eq(twoFactors.userId, userId));
  });
}

// ---------------------------------------------------------------- telling the account

export type TwoFactorChange = "on" | "off" | "recovery-codes";

/**
 * Emails the account when two-factor is turned on or off, or its recovery codes are replaced (decision 020):
 * someone holding a session could otherwise turn it on with an app of their own and lock the owner out unseen.
 */
export async function sendTwoFactorNotice(user: Pick<User, "id" | "email" | "name">, change: TwoFactorChange): Promise<void> {
  const appName = env().APP_NAME;
  const texts: Record<TwoFactorChange, { subject: string; intro: string; outro: string }> = {
    on: {
      subject: `Two-factor authentication is on for your ${appName} account`,
      intro: `Two-factor authentication was just turned on for your ${appName} account: each login now asks for a code from the authenticator app that was set up.`,
      outro:
        "If this was not you, someone else may control your account: reset your password from the login page at once and contact us, so we can check it with you.",
    },
    off: {
      subject: `Two-factor authentication is off for your ${appName} account`,
      intro: `Two-factor authentication was just turned off for your ${appName} account, and its recovery codes no longer work. Logging in now asks for the password only.`,
      outro: "If this was not you, reset your password from the login page at once, then turn two-factor authentication on again.",
    },
    "recovery-codes": {
      subject: `New recovery codes for your ${appName} account`,
      intro: `New two-factor recovery codes were just made for your ${appName} account; the earlier ones no longer work.`,
      outro: "If this was not you, reset your password from the login page at once and make new recovery codes yourself.",
    },
  };
  const text = texts[change];
  await sendMail(
    actionMail({
      to: user.email,
      subject: text.subject,
      greetingName: user.name,
      intro: text.intro,
      actionLabel: "Review your account",
      actionUrl: `${env().APP_URL}/member/${user.id}/profile#two-factor`,
      outro: text.outro,
    }),
  );
}
