import type { SubmissionResult } from "@conform-to/react";
import { data, redirect, type RouterContextProvider } from "react-router";
import { EmailTakenError } from "~/modules/accounts/accounts.server";
import { getOptionalUser } from "~/modules/accounts/current-user.server";
import { RegisterSchema } from "~/modules/accounts/schemas";
import { endSession, startUserSession } from "~/modules/accounts/session.server";
import { flashHeader, redirectWithFlash } from "~/modules/flash/flash.server";
import { listPublishedDocuments } from "~/modules/legal/legal.server";
import { hasValidSignature, INVALID_SIGNATURE } from "~/modules/security/signed-url.server";
import { createAccountFromInvite, loadInviteView } from "./band-invite.server";
import { acceptInvite, BandError, INVITE_STATE_MESSAGES, MISSING_INVITE } from "./band.server";
import { profilePaths } from "./profile-types";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { requestInfoContext } from "~/request-context";

/**
 * /band-invite/{id}: a signed link mailed to the invitee. Every request checks the signature first
 * (a tampered or expired link answers 'Invalid signature.'), then the invitation, then who is asking:
 * the invited account accepts, another account is told to switch, a visitor logs in or creates the account.
 */

export type BandInviteMode = "accept" | "mismatch" | "login" | "register";

export type BandInviteData =
  | { kind: "refused"; message: string; loggedIn: boolean }
  | {
      kind: "invite";
      mode: BandInviteMode;
      invite: { email: string; canEdit: boolean; artistName: string; inviterName: string | null };
      /** The logged-in user's address (mismatch mode). */
      currentEmail: string | null;
      /** /login?redirect=<this path with its signed query> (login mode). */
      loginHref: string;
      /** The required documents to agree to (register mode). */
      documents: Array<{ id: number; name: string; slug: string }>;
    };

export type BandInviteActionData = { intent: "accept" | "register"; result: SubmissionResult<string[]> };

const HIDDEN = ["password", "passwordConfirmation"];

/** The link's own path and signed query: where login sends the visitor back and logout returns to. */
function selfPath(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

function loginHref(request: Request): string {
  return `/login?${new URLSearchParams({ redirect: selfPath(request) }).toString()}`;
}

/**
 * Where a new band member lands: the artist's edit page when they may edit it; otherwise the artist's
 * page (the edit page admits only the owner, members with editing rights and administrators).
 */
function landingPath(userId: number, artist: { id: number; username: string }, canEdit: boolean): string {
  const paths = profilePaths("artist", "member", userId);
  return canEdit ? paths.ownerPage(artist.id) : paths.publicPage(artist.username);
}

type Context = Readonly<RouterContextProvider>;

export async function bandInviteLoader(request: Request, context: Context, inviteId: string) {
  const user = await getOptionalUser(context);
  const refuse = (message: string, status: number) => data<BandInviteData>({ kind: "refused", message, loggedIn: Boolean(user) }, { status });
  if (!hasValidSignature(request.url)) return refuse(INVALID_SIGNATURE, 403);
  const invite = await loadInviteView(inviteId);
  if (!invite) return refuse(MISSING_INVITE, 404);
  if (invite.state !== "pending") return refuse(INVITE_STATE_MESSAGES[invite.state], 410);
  const mode: BandInviteMode = user
    ? user.email.toLowerCase() === invite.email.toLowerCase()
      ? "accept"
      : "mismatch"
    : invite.accountExists
      ? "login"
      : "register";
  const documents = mode === "register" ? (await listPublishedDocuments()).filter((d) => d.required) : [];
  return data<BandInviteData>({
    kind: "invite",
    mode,
    invite: { email: invite.email, canEdit: invite.canEdit, artistName: invite.artistName, inviterName: invite.inviterName },
    currentEmail: mode === "mismatch" ? user!.email : null,
    loginHref: loginHref(request),
    documents: documents.map((d) => ({ id: d.id, name: d.name, slug: d.slug })),
  });
}

export async function bandInviteAction(request: Request, context: Context, inviteId: string) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  if (intent === "logout") {
    // Back to the same link, logged out, so the right account can log in from it.
    return endSession(request, selfPath(request));
  }
  if (intent === "register") return register(request, context, formData, inviteId);

  const refuse = (message: string, status: number) =>
    data<BandInviteActionData>({ intent: "accept", result: { status: "error", error: { "": [message] } } }, { status });
  if (!hasValidSignature(request.url)) return refuse(INVALID_SIGNATURE, 403);
  const user = await getOptionalUser(context);
  if (!user) throw redirect(loginHref(request));
  try {
    const { artist, invite } = await acceptInvite(inviteId, user);
    return redirectWithFlash(landingPath(user.id, artist, invite.canEdit), {
      kind: "success",
      message: `Welcome to ${artist.name}! You are now a member of the band.`,
    });
  } catch (error) {
    if (error instanceof BandError) return refuse(error.message, error.status);
    throw error;
  }
}

async function register(request: Request, context: Context, formData: FormData, inviteId: string) {
  const { ip } = context.get(requestInfoContext);
  const submission = parseForm(formData, { schema: RegisterSchema });
  const refuse = (message: string, status: number) =>
    data<BandInviteActionData>({ intent: "register", result: submission.reply({ formErrors: [message], hideFields: HIDDEN }) }, { status });
  if (!hasValidSignature(request.url)) return refuse(INVALID_SIGNATURE, 403);
  if (submission.status !== "success") {
    return data<BandInviteActionData>({ intent: "register", result: submission.reply({ hideFields: HIDDEN }) }, { status: 400 });
  }
  if (await getOptionalUser(context)) return refuse("You are logged in already. Log out first to create another account.", 400);
  // No per-IP limit as on /register: an account can only be made from a pending invitation, once, and
  // invitations are rate-limited per artist where they are sent.
  try {
    const { user, artistId, artistName, artistUsername, canEdit } = await createAccountFromInvite({
      inviteId,
      name: submission.value.name,
      lastName: submission.value.lastName,
      password: submission.value.password,
      ip,
      userAgent: request.headers.get("user-agent") ?? "",
    });
    const response = await startUserSession(request, {
      userId: user.id,
      ip,
      redirectTo: landingPath(user.id, { id: artistId, username: artistUsername }, canEdit),
    });
    response.headers.append(
      "Set-Cookie",
      await flashHeader({ kind: "success", message: `Your account is ready. Welcome to ${artistName}! You are now a member of the band.` }),
    );
    return response;
  } catch (error) {
    if (error instanceof EmailTakenError) {
      return refuse("An account with this email address exists already. Log in to accept the invitation.", 409);
    }
    if (error instanceof BandError) return refuse(error.message, error.status);
    throw error;
  }
}
