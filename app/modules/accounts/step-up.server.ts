import { STATUS_CODES } from "node:http";
import { createCookie, data, type Cookie } from "react-router";
import type { User } from "~/db/schema";
import { env } from "~/env.server";
import { knownDevice, limitedAttempt } from "./device-cookie.server";
import { verifyPassword } from "./password.server";
import { getSession, sessionStorage } from "./session.server";
import { hasTwoFactor, verifySecondFactor, verifyTotp } from "./two-factor.server";

/**
 * Step-up security (decision 020): the login's second step, the fresh confirmation that account and
 * money-moving changes need, and the current code that administrators' money decisions need.
 */

// ---------------------------------------------------------------- rate limits (the login's, decision 004)

type Outcome = { ok: true } | { ok: false; message: string; status: number };

/**
 * Counts failures of a code or password check in the windows the password step uses, under its own `prefix`:
 * per address, per account and address, per account anywhere; or, from a browser the account logged in from
 * before (`device`), that browser's own window only (device-cookie.server.ts). Refuses before checking when a
 * window is full; a success clears the narrowest counter.
 */
async function limited(
  prefix: string,
  userId: number,
  at: { ip: string; device?: string | null },
  check: () => Promise<boolean>,
  wrong: string,
): Promise<Outcome> {
  const attempt = await limitedAttempt(
    { prefix, account: userId, ip: at.ip, device: at.device ?? null, tooMany: (wait) => `Too many attempts. Please try again in ${wait}.` },
    check,
  );
  if (attempt.ok) return attempt;
  return { ok: false, status: attempt.status, message: attempt.status === 429 ? attempt.message : wrong };
}

export const WRONG_CODE = "That code is not right. Enter the 6-digit code from your authenticator app, or one of your recovery codes.";

/** The login's second step: a TOTP code or an unused recovery code, rate-limited like the password. */
export function attemptSecondFactor(input: { userId: number; code: string; ip: string; device?: string | null }): Promise<Outcome> {
  return limited("login-2fa", input.userId, input, async () => (await verifySecondFactor(input.userId, input.code)) !== null, WRONG_CODE);
}

// ---------------------------------------------------------------- the pending second step (no session yet)

export const SECOND_STEP_SECONDS = 5 * 60;

interface PendingLogin {
  userId: number;
  redirect: string;
  expires: number;
}

let pendingCookie: Cookie | undefined;
function secondStepCookie(): Cookie {
  pendingCookie ??= createCookie("backline_login_2fa", {
    httpOnly: true,
    sameSite: "lax",
    secure: env().isProduction,
    // "/" and not "/login": the page's data requests go to /login.data, which a "/login" cookie does not reach.
    path: "/",
    maxAge: SECOND_STEP_SECONDS,
    secrets: [env().SESSION_SECRET],
  });
  return pendingCookie;
}

/** A signed, five-minute cookie naming who passed the password step; it is not a session and opens nothing else. */
export function secondStepHeader(userId: number, redirect: string): Promise<string> {
  return secondStepCookie().serialize({ userId, redirect, expires: Date.now() + SECOND_STEP_SECONDS * 1000 } satisfies PendingLogin);
}

export async function readSecondStep(request: Request): Promise<PendingLogin | null> {
  const header = request.headers.get("Cookie");
  if (!header?.includes("backline_login_2fa=")) return null;
  const value = (await secondStepCookie().parse(header)) as PendingLogin | null;
  if (!value || typeof value.userId !== "number" || typeof value.expires !== "number" || value.expires < Date.now()) return null;
  return { userId: value.userId, redirect: typeof value.redirect === "string" ? value.redirect : "", expires: value.expires };
}

export function clearSecondStepHeader(): Promise<string> {
  return secondStepCookie().serialize("", { maxAge: 0 });
}

// ---------------------------------------------------------------- fresh confirmation

export const CONFIRMATION_WINDOW_SECONDS = 10 * 60;
/** Administrators' money decisions: a code from the authenticator within this long (decision 020). */
export const CODE_CONFIRMATION_WINDOW_SECONDS = 5 * 60;

export const CONFIRM_PASSWORD_FIELD = "confirmPassword";
export const CONFIRM_CODE_FIELD = "confirmCode";

/** What the error page needs to show the confirm form (app/components/confirm-access.tsx). */
export interface ConfirmRequest {
  /** The form as it was posted, to post again with the confirmation (files are never carried). */
  fields: Array<[string, string]>;
  /** Ask for the authenticator code instead of the password. */
  twoFactor: boolean;
  /**
   * "account": an account or payout change (password, or code when two-factor is on; 10 minutes).
   * "money-decision": an administrator's money decision (a current authenticator code only; 5 minutes).
   */
  purpose: "account" | "money-decision";
  error: string | null;
}

export function isFresh(confirmedAt: unknown, now = Date.now(), windowSeconds = CONFIRMATION_WINDOW_SECONDS): boolean {
  return typeof confirmedAt === "number" && confirmedAt <= now && now - confirmedAt < windowSeconds * 1000;
}

/**
 * Records in the request's session that its user confirmed it was them just now; `byCode` when it was with a
 * current authenticator code (which administrators' money decisions ask for).
 */
export async function recordConfirmation(request: Request, now = Date.now(), options: { byCode?: boolean } = {}): Promise<void> {
  const session = await getSession(request);
  if (!session.id || !session.get("userId")) return;
  session.set("confirmedAt", now);
  if (options.byCode) session.set("codeConfirmedAt", now);
  await sessionStorage().commitSession(session);
}

/** Checks the password (or, with two-factor on, the code), rate-limited like login. */
export async function confirmIdentity(
  user: Pick<User, "id" | "passwordHash">,
  input: { password?: string; code?: string; ip: string; device?: string | null },
): Promise<Outcome> {
  if (await hasTwoFactor(user.id)) {
    return limited("confirm", user.id, input, async () => Boolean(input.code) && (await verifySecondFactor(user.id, input.code!)) !== null, WRONG_CODE);
  }
  return limited(
    "confirm",
    user.id,
    input,
    () => (input.password ? verifyPassword(input.password, user.passwordHash) : Promise.resolve(false)),
    "That password is not right.",
  );
}

/** Turning two-factor off: the password or a code (TOTP or recovery), rate-limited like login. */
export function confirmPasswordOrCode(user: Pick<User, "id" | "passwordHash">, value: string, at: { ip: string; device?: string | null }): Promise<Outcome> {
  return limited(
    "confirm",
    user.id,
    at,
    async () => (await verifyPassword(value, user.passwordHash)) || (await verifySecondFactor(user.id, value)) !== null,
    "That password or code is not right.",
  );
}

/** The form's fields as they were posted, without the confirmation's own (files are never carried). */
function submittedFields(formData: FormData): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  for (const [name, value] of formData) {
    if (typeof value === "string" && name !== CONFIRM_PASSWORD_FIELD && name !== CONFIRM_CODE_FIELD) fields.push([name, value]);
  }
  return fields;
}

function confirmResponse(formData: FormData, confirm: Omit<ConfirmRequest, "fields">, message: string) {
  return data({ message, confirm: { ...confirm, fields: submittedFields(formData) } satisfies ConfirmRequest }, { status: 403, statusText: STATUS_CODES[403] });
}

/**
 * The one guard for account takeover and money-moving changes (decision 020): the session must have confirmed
 * it is its user within the last 10 minutes, with the password, or the authenticator code when two-factor is
 * on. Otherwise it throws a 403 that the error page shows as a confirm form; that form posts the same fields
 * back to the same address with the password or code, and when they are right the confirmation is recorded and
 * the action goes on with what was first submitted. Call it before anything changes, with the action's form data.
 */
export async function requireFreshConfirmation(request: Request, user: Pick<User, "id" | "passwordHash">, formData: FormData, ip: string): Promise<void> {
  const session = await getSession(request);
  if (isFresh(session.get("confirmedAt"))) return;
  const password = formData.get(CONFIRM_PASSWORD_FIELD);
  const code = formData.get(CONFIRM_CODE_FIELD);
  const twoFactor = await hasTwoFactor(user.id);
  let error: string | null = null;
  if (typeof password === "string" || typeof code === "string") {
    const outcome = await confirmIdentity(user, {
      password: typeof password === "string" ? password : undefined,
      code: typeof code === "string" ? code : undefined,
      ip,
      device: await knownDevice(request, user.id),
    });
    if (outcome.ok) {
      await recordConfirmation(request, Date.now(), { byCode: twoFactor });
      return;
    }
    error = outcome.message;
  }
  throw confirmResponse(
    formData,
    { twoFactor, purpose: "account", error },
    "Confirm it is you to continue: this change needs your password or authenticator code within the last 10 minutes.",
  );
}

export const WRONG_TOTP = "That code is not right. Enter the 6-digit code your authenticator app shows now.";

/**
 * The guard for administrators' money decisions (paying, rejecting, funding or releasing escrow, approving
 * affiliates; decision 020): a current authenticator code, entered with the action (`confirmCode`), or a
 * confirmation by code within the last 5 minutes. Only a TOTP code counts: a recovery code is for getting back
 * into an account, not for paying. The caller has checked that two-factor is on. Otherwise it throws the confirm
 * form's 403 (asking for the code), which posts the action again with it.
 */
export async function requireFreshCode(request: Request, user: Pick<User, "id">, formData: FormData, ip: string): Promise<void> {
  const code = formData.get(CONFIRM_CODE_FIELD);
  let error: string | null = null;
  if (typeof code === "string") {
    const outcome = await limited("confirm", user.id, { ip, device: await knownDevice(request, user.id) }, () => verifyTotp(user.id, code), WRONG_TOTP);
    if (outcome.ok) {
      await recordConfirmation(request, Date.now(), { byCode: true });
      return;
    }
    error = outcome.message;
  } else {
    const session = await getSession(request);
    if (isFresh(session.get("codeConfirmedAt"), Date.now(), CODE_CONFIRMATION_WINDOW_SECONDS)) return;
  }
  throw confirmResponse(
    formData,
    { twoFactor: true, purpose: "money-decision", error },
    "Enter a code from your authenticator app to continue: money decisions need one within the last 5 minutes.",
  );
}
