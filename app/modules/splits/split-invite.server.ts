import type { SubmissionResult } from "@conform-to/react";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { data, redirect, type RouterContextProvider } from "react-router";
import { db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors";
import { profiles, songs, splitParties, splitVersions, users, type SplitPartyStatus, type User } from "~/db/schema";
import { ACCT_MEMBER, EmailTakenError, findUserByEmail, normalizeEmail } from "~/modules/accounts/accounts.server";
import { fullName, getOptionalUser } from "~/modules/accounts/current-user.server";
import { hashPassword } from "~/modules/accounts/password.server";
import { RegisterSchema } from "~/modules/accounts/schemas";
import { endSession, startUserSession } from "~/modules/accounts/session.server";
import { flashHeader, redirectWithFlash } from "~/modules/flash/flash.server";
import { listPublishedDocuments, pendingDocumentsFor, signDocuments } from "~/modules/legal/legal.server";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { hasValidSignature, INVALID_SIGNATURE } from "~/modules/security/signed-url.server";
import { requestInfoContext } from "~/request-context";
import { formatBps } from "./split-rules";
import { declineSplitByLink, MISSING_PROPOSAL, SplitError } from "./splits.server";

/**
 * `/share-split-proposals/create-account?party={id}&expires&signature`: the signed link a split invitee
 * without an account receives. The signature is checked first on every request ('Invalid signature.'),
 * then the party. A visitor creates a verified account here (the link proves the mailbox) and lands on the
 * proposal to accept or decline it, or declines from the link alone; an existing account logs in; the
 * addressee, logged in, goes straight to the proposal.
 */

type Context = Readonly<RouterContextProvider>;

export type SplitInviteMode = "mismatch" | "login" | "register";

export type SplitInviteData =
  | { kind: "refused"; message: string; loggedIn: boolean }
  | {
      kind: "invite";
      mode: SplitInviteMode;
      invite: {
        email: string;
        shareLabel: string;
        songTitle: string;
        artistName: string;
        inviterName: string | null;
        versionNumber: number;
        effectiveFrom: string;
        parties: Array<{ name: string; share: string; status: SplitPartyStatus }>;
      };
      currentEmail: string | null;
      loginHref: string;
      documents: Array<{ id: number; name: string; slug: string }>;
    };

export type SplitInviteActionData = { intent: "decline" | "register"; result: SubmissionResult<string[]> };

const HIDDEN = ["password", "passwordConfirmation"];

function selfPath(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

function loginHref(request: Request): string {
  return `/login?${new URLSearchParams({ redirect: selfPath(request) }).toString()}`;
}

const proposalPath = (userId: number, songId: number) => `/member/${userId}/song-profile/${songId}#splits`;

function partyIdOf(request: Request): string | null {
  const id = new URL(request.url).searchParams.get("party") ?? "";
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) ? id : null;
}

/** The party and its version's sheet. Two statements. */
async function loadInvite(partyId: string) {
  const [row] = await db()
    .select({
      party: splitParties,
      version: { id: splitVersions.id, number: splitVersions.number, status: splitVersions.status, effectiveFrom: splitVersions.effectiveFrom },
      songId: songs.id,
      songTitle: songs.title,
      artistName: profiles.name,
      inviterName: users.name,
      inviterLastName: users.lastName,
      accountExists: sql<boolean>`exists (select 1 from ${users} u where lower(u.email) = lower(${splitParties.email}))`,
    })
    .from(splitParties)
    .innerJoin(splitVersions, eq(splitVersions.id, splitParties.versionId))
    .innerJoin(songs, eq(songs.id, splitVersions.songId))
    .innerJoin(profiles, eq(profiles.id, songs.artistId))
    .leftJoin(users, eq(users.id, splitVersions.proposedBy))
    .where(eq(splitParties.id, partyId))
    .limit(1);
  if (!row || row.version.status === "withdrawn") return null;
  const parties = await db()
    .select({ name: splitParties.name, shareBps: splitParties.shareBps, status: splitParties.status })
    .from(splitParties)
    .where(eq(splitParties.versionId, row.version.id))
    .orderBy(asc(splitParties.position));
  return { ...row, parties };
}

export async function splitInviteLoader(request: Request, context: Context) {
  const user = getOptionalUser(context);
  const refuse = (message: string, status: number) => data<SplitInviteData>({ kind: "refused", message, loggedIn: Boolean(user) }, { status });
  if (!hasValidSignature(request.url)) return refuse(INVALID_SIGNATURE, 403);
  const partyId = partyIdOf(request);
  const invite = partyId ? await loadInvite(partyId) : null;
  if (!invite) return refuse(MISSING_PROPOSAL, 404);
  const addressee = user && (invite.party.userId === user.id || normalizeEmail(user.email) === normalizeEmail(invite.party.email));
  // The addressee, logged in, answers on the song's split sheet (where every party sees the whole sheet).
  if (user && addressee) throw redirect(proposalPath(user.id, invite.songId));
  if (invite.party.status !== "pending") return refuse(`This share was ${invite.party.status} already. Log in to see the split sheet.`, 410);
  const mode: SplitInviteMode = user ? "mismatch" : invite.accountExists ? "login" : "register";
  const documents = mode === "register" ? (await listPublishedDocuments()).filter((d) => d.required) : [];
  return data<SplitInviteData>({
    kind: "invite",
    mode,
    invite: {
      email: invite.party.email,
      shareLabel: formatBps(invite.party.shareBps),
      songTitle: invite.songTitle,
      artistName: invite.artistName,
      inviterName: invite.inviterName === null ? null : fullName({ name: invite.inviterName, lastName: invite.inviterLastName ?? "" }),
      versionNumber: invite.version.number,
      effectiveFrom: invite.version.effectiveFrom,
      parties: invite.parties.map((p) => ({ name: p.name, share: formatBps(p.shareBps), status: p.status })),
    },
    currentEmail: mode === "mismatch" ? user!.email : null,
    loginHref: loginHref(request),
    documents: documents.map((d) => ({ id: d.id, name: d.name, slug: d.slug })),
  });
}

export async function splitInviteAction(request: Request, context: Context) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  if (intent === "logout") return endSession(request, selfPath(request));
  if (intent === "register") return register(request, context, formData);
  if (intent !== "decline")
    return data<SplitInviteActionData>({ intent: "decline", result: { status: "error", error: { "": ["Unknown form."] } } }, { status: 400 });
  const refuse = (message: string, status: number) =>
    data<SplitInviteActionData>({ intent, result: { status: "error", error: { "": [message] } } }, { status });
  if (!hasValidSignature(request.url)) return refuse(INVALID_SIGNATURE, 403);
  const partyId = partyIdOf(request);
  if (!partyId) return refuse(MISSING_PROPOSAL, 404);
  const { ip } = context.get(requestInfoContext);
  try {
    await declineSplitByLink(partyId, { ip, userAgent: request.headers.get("user-agent") ?? "" });
  } catch (error) {
    if (error instanceof SplitError) return refuse(error.message, error.status);
    throw error;
  }
  return redirectWithFlash("/login", { kind: "info", message: "You declined the share. The song's owner is told, and the share goes back to them." });
}

/**
 * Creates the invitee's account (verified: the signed link reached the invited mailbox) and links every
 * split party addressed to it, in one transaction; the required documents are signed right after, as the
 * box was ticked.
 */
export async function createAccountFromSplitInvite(input: {
  partyId: string;
  name: string;
  lastName: string;
  password: string;
  ip: string;
  userAgent: string;
}): Promise<{ user: User; songId: number }> {
  const passwordHash = await hashPassword(input.password);
  let result: { user: User; songId: number };
  try {
    result = await db().transaction(async (tx) => {
      const [party] = await tx
        .select({ email: splitParties.email, songId: splitVersions.songId, status: splitVersions.status })
        .from(splitParties)
        .innerJoin(splitVersions, eq(splitVersions.id, splitParties.versionId))
        .where(eq(splitParties.id, input.partyId));
      if (!party || party.status === "withdrawn") throw new SplitError(404, MISSING_PROPOSAL);
      if (await findUserByEmail(party.email, tx)) throw new EmailTakenError();
      const now = new Date();
      const [user] = await tx
        .insert(users)
        .values({
          name: input.name,
          lastName: input.lastName,
          email: party.email.trim(),
          passwordHash,
          acctType: ACCT_MEMBER,
          roleId: 5,
          emailVerifiedAt: now,
          activatedAt: now,
        })
        .returning();
      await tx
        .update(splitParties)
        .set({ userId: user!.id, name: fullName(user!) })
        .where(and(isNull(splitParties.userId), sql`lower(${splitParties.email}) = ${normalizeEmail(party.email)}`));
      return { user: user!, songId: party.songId };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new EmailTakenError();
    throw error;
  }
  const pending = await pendingDocumentsFor(result.user.id);
  await signDocuments({ userId: result.user.id, documentIds: pending.map((d) => d.id), ip: input.ip, userAgent: input.userAgent });
  return result;
}

async function register(request: Request, context: Context, formData: FormData) {
  const { ip } = context.get(requestInfoContext);
  const submission = parseForm(formData, { schema: RegisterSchema });
  const refuse = (message: string, status: number) =>
    data<SplitInviteActionData>({ intent: "register", result: submission.reply({ formErrors: [message], hideFields: HIDDEN }) }, { status });
  if (!hasValidSignature(request.url)) return refuse(INVALID_SIGNATURE, 403);
  const partyId = partyIdOf(request);
  if (!partyId) return refuse(MISSING_PROPOSAL, 404);
  if (submission.status !== "success")
    return data<SplitInviteActionData>({ intent: "register", result: submission.reply({ hideFields: HIDDEN }) }, { status: 400 });
  if (getOptionalUser(context)) return refuse("You are logged in already. Log out first to create another account.", 400);
  try {
    const { user, songId } = await createAccountFromSplitInvite({
      partyId,
      name: submission.value.name,
      lastName: submission.value.lastName,
      password: submission.value.password,
      ip,
      userAgent: request.headers.get("user-agent") ?? "",
    });
    const response = await startUserSession(request, { userId: user.id, ip, redirectTo: proposalPath(user.id, songId) });
    response.headers.append(
      "Set-Cookie",
      await flashHeader({ kind: "success", message: "Your account is ready. Here is the split sheet: accept or decline your share." }),
    );
    return response;
  } catch (error) {
    if (error instanceof EmailTakenError) return refuse("An account with this email address exists already. Log in to answer the proposal.", 409);
    if (error instanceof SplitError) return refuse(error.message, error.status);
    throw error;
  }
}
