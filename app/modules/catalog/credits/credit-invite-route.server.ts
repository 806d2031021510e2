import type { SubmissionResult } from "@conform-to/react";
import { data, redirect, type RouterContextProvider } from "react-router";
import type { CreditRole } from "~/db/schema";
import { EmailTakenError } from "~/modules/accounts/accounts.server";
import { getOptionalUser } from "~/modules/accounts/current-user.server";
import { RegisterSchema } from "~/modules/accounts/schemas";
import { endSession, startUserSession } from "~/modules/accounts/session.server";
import { flashHeader, redirectWithFlash } from "~/modules/flash/flash.server";
import { listPublishedDocuments } from "~/modules/legal/legal.server";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { hasValidSignature, INVALID_SIGNATURE } from "~/modules/security/signed-url.server";
import { requestInfoContext } from "~/request-context";
import {
  acceptCredit,
  createAccountFromCredit,
  CREDIT_ROLE_LABELS,
  CREDIT_STATE_MESSAGES,
  CreditError,
  declineCredit,
  loadCreditInvite,
  MISSING_CREDIT,
} from "./credits.server";

/**
 * `/song-producer-invite/{id}` and `/song-featured-artist-invite/{id}`: the signed link of a credit
 * invitation. As with band invitations, the signature is checked first on every request ('Invalid
 * signature.'), then the invitation, then who asks: the addressee accepts or declines, another account is
 * told to switch, a visitor logs in or creates the account here. Declining needs only the link.
 */

export type CreditInviteMode = "accept" | "mismatch" | "login" | "register";

export type CreditInviteData =
  | { kind: "refused"; message: string; loggedIn: boolean }
  | {
      kind: "invite";
      mode: CreditInviteMode;
      invite: { email: string; roleLabel: string; songTitle: string; artistName: string; inviterName: string | null };
      currentEmail: string | null;
      loginHref: string;
      documents: Array<{ id: number; name: string; slug: string }>;
    };

export type CreditInviteActionData = { intent: "accept" | "decline" | "register"; result: SubmissionResult<string[]> };

type Context = Readonly<RouterContextProvider>;

const HIDDEN = ["password", "passwordConfirmation"];

function selfPath(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

function loginHref(request: Request): string {
  return `/login?${new URLSearchParams({ redirect: selfPath(request) }).toString()}`;
}

export async function creditInviteLoader(request: Request, context: Context, id: string, role: CreditRole) {
  const user = getOptionalUser(context);
  const refuse = (message: string, status: number) => data<CreditInviteData>({ kind: "refused", message, loggedIn: Boolean(user) }, { status });
  if (!hasValidSignature(request.url)) return refuse(INVALID_SIGNATURE, 403);
  const invite = await loadCreditInvite(id, role);
  if (!invite) return refuse(MISSING_CREDIT, 404);
  if (invite.state !== "pending") return refuse(CREDIT_STATE_MESSAGES[invite.state], 410);
  const mode: CreditInviteMode = user
    ? user.email.toLowerCase() === invite.email.toLowerCase()
      ? "accept"
      : "mismatch"
    : invite.accountExists
      ? "login"
      : "register";
  const documents = mode === "register" ? (await listPublishedDocuments()).filter((d) => d.required) : [];
  return data<CreditInviteData>({
    kind: "invite",
    mode,
    invite: {
      email: invite.email,
      roleLabel: CREDIT_ROLE_LABELS[invite.role],
      songTitle: invite.songTitle,
      artistName: invite.artistName,
      inviterName: invite.inviterName,
    },
    currentEmail: mode === "mismatch" ? user!.email : null,
    loginHref: loginHref(request),
    documents: documents.map((d) => ({ id: d.id, name: d.name, slug: d.slug })),
  });
}

export async function creditInviteAction(request: Request, context: Context, id: string, role: CreditRole) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  if (intent === "logout") return endSession(request, selfPath(request));
  if (intent === "register") return register(request, context, formData, id, role);
  if (intent !== "accept" && intent !== "decline") {
    return data<CreditInviteActionData>({ intent: "accept", result: { status: "error", error: { "": ["Unknown form."] } } }, { status: 400 });
  }
  const refuse = (message: string, status: number) =>
    data<CreditInviteActionData>({ intent, result: { status: "error", error: { "": [message] } } }, { status });
  if (!hasValidSignature(request.url)) return refuse(INVALID_SIGNATURE, 403);
  const user = getOptionalUser(context);
  try {
    if (intent === "decline") {
      await declineCredit(id, role, user);
      return redirectWithFlash(user ? `/member/${user.id}/dashboard` : "/login", {
        kind: "info",
        message: "You declined the credit. The song's owner is told.",
      });
    }
    if (!user) throw redirect(loginHref(request));
    await acceptCredit(id, role, user);
    return redirectWithFlash(`/member/${user.id}/dashboard`, {
      kind: "success",
      message: "The credit is accepted and verified: it shows on the release page and your profile.",
    });
  } catch (error) {
    if (error instanceof CreditError) return refuse(error.message, error.status);
    throw error;
  }
}

async function register(request: Request, context: Context, formData: FormData, id: string, role: CreditRole) {
  const { ip } = context.get(requestInfoContext);
  const submission = parseForm(formData, { schema: RegisterSchema });
  const refuse = (message: string, status: number) =>
    data<CreditInviteActionData>({ intent: "register", result: submission.reply({ formErrors: [message], hideFields: HIDDEN }) }, { status });
  if (!hasValidSignature(request.url)) return refuse(INVALID_SIGNATURE, 403);
  if (submission.status !== "success")
    return data<CreditInviteActionData>({ intent: "register", result: submission.reply({ hideFields: HIDDEN }) }, { status: 400 });
  if (getOptionalUser(context)) return refuse("You are logged in already. Log out first to create another account.", 400);
  try {
    const { user } = await createAccountFromCredit({
      id,
      role,
      name: submission.value.name,
      lastName: submission.value.lastName,
      password: submission.value.password,
      ip,
      userAgent: request.headers.get("user-agent") ?? "",
    });
    const response = await startUserSession(request, { userId: user.id, ip, redirectTo: `/member/${user.id}/dashboard` });
    response.headers.append("Set-Cookie", await flashHeader({ kind: "success", message: "Your account is ready, and the credit is accepted and verified." }));
    return response;
  } catch (error) {
    if (error instanceof EmailTakenError) return refuse("An account with this email address exists already. Log in to accept the invitation.", 409);
    if (error instanceof CreditError) return refuse(error.message, error.status);
    throw error;
  }
}
