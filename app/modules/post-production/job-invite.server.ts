import type { SubmissionResult } from "@conform-to/react";
import { and, eq, sql } from "drizzle-orm";
import { data, redirect, type RouterContextProvider } from "react-router";
import { db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors";
import { postProductionJobs, profiles, songs, users, type User } from "~/db/schema";
import { ACCT_MEMBER, EmailTakenError, findUserByEmail, normalizeEmail } from "~/modules/accounts/accounts.server";
import { fullName, getOptionalUser } from "~/modules/accounts/current-user.server";
import { hashPassword } from "~/modules/accounts/password.server";
import { RegisterSchema } from "~/modules/accounts/schemas";
import { endSession, startUserSession } from "~/modules/accounts/session.server";
import { flashHeader } from "~/modules/flash/flash.server";
import { listPublishedDocuments, pendingDocumentsFor, signDocuments } from "~/modules/legal/legal.server";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { hasValidSignature, INVALID_SIGNATURE } from "~/modules/security/signed-url.server";
import { requestInfoContext } from "~/request-context";
import { NO_JOB } from "./job-access.server";
import { bindInvitedJobs } from "./job-creation.server";
import { PP_SERVICE_LABELS } from "./post-production-rules";

/**
 * `/post-production-jobs/create-account?job={id}&expires&signature`: the signed link an invited engineer
 * without an account receives (the split invitation's rules, split-invite.server.ts). The signature is checked
 * first on every request ('Invalid signature.'), then the job. A visitor creates a verified account here (the
 * link proves the mailbox) and lands on the job; an existing account logs in (and comes back here); the
 * addressee, logged in, is bound to the job and goes straight to it.
 */

type Context = Readonly<RouterContextProvider>;

export type JobInviteMode = "mismatch" | "login" | "register";

export type JobInviteData =
  | { kind: "refused"; message: string; loggedIn: boolean }
  | {
      kind: "invite";
      mode: JobInviteMode;
      invite: { email: string; songTitle: string; artistName: string; ownerName: string; service: string; notes: string };
      currentEmail: string | null;
      loginHref: string;
      documents: Array<{ id: number; name: string; slug: string }>;
    };

export type JobInviteActionData = { intent: "register"; result: SubmissionResult<string[]> };

const HIDDEN = ["password", "passwordConfirmation"];

function selfPath(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

const loginHref = (request: Request) => `/login?${new URLSearchParams({ redirect: selfPath(request) }).toString()}`;
const jobPath = (userId: number, jobId: number) => `/member/${userId}/post-production-job/${jobId}`;

function jobIdOf(request: Request): number | null {
  const id = new URL(request.url).searchParams.get("job") ?? "";
  return /^[1-9][0-9]{0,9}$/.test(id) && Number(id) <= 2_147_483_647 ? Number(id) : null;
}

/** The invited job with its song and owner. One statement. */
async function loadInvite(jobId: number) {
  const [row] = await db()
    .select({
      job: postProductionJobs,
      songTitle: songs.title,
      artistName: profiles.name,
      ownerName: sql<string>`${users.name} || ' ' || ${users.lastName}`,
      accountExists: sql<boolean>`exists (select 1 from ${users} u where lower(u.email) = lower(${postProductionJobs.invitedEmail}))`,
    })
    .from(postProductionJobs)
    .innerJoin(songs, eq(songs.id, postProductionJobs.songId))
    .innerJoin(profiles, eq(profiles.id, songs.artistId))
    .innerJoin(users, eq(users.id, postProductionJobs.ownerId))
    .where(and(eq(postProductionJobs.id, jobId), sql`${postProductionJobs.invitedEmail} is not null`))
    .limit(1);
  return row ?? null;
}

export async function jobInviteLoader(request: Request, context: Context) {
  const user = getOptionalUser(context);
  const refuse = (message: string, status: number) => data<JobInviteData>({ kind: "refused", message, loggedIn: Boolean(user) }, { status });
  if (!hasValidSignature(request.url)) return refuse(INVALID_SIGNATURE, 403);
  const jobId = jobIdOf(request);
  const invite = jobId ? await loadInvite(jobId) : null;
  if (!invite) return refuse(NO_JOB, 404);
  const email = invite.job.invitedEmail!;
  const addressee = user && (invite.job.engineerId === user.id || (invite.job.engineerId === null && normalizeEmail(user.email) === normalizeEmail(email)));
  if (user && addressee) {
    // The invited address's account, logged in: bound to the job (once), then on the job's page.
    if (invite.job.engineerId === null) await bindInvitedJobs(db(), user);
    throw redirect(jobPath(user.id, invite.job.id));
  }
  if (invite.job.engineerId !== null) return refuse("This invitation was answered already. Log in to see the job.", 410);
  if (invite.job.status !== "pending") return refuse(`This job was ${invite.job.status.replace(/_/g, " ")} already.`, 410);
  const mode: JobInviteMode = user ? "mismatch" : invite.accountExists ? "login" : "register";
  const documents = mode === "register" ? (await listPublishedDocuments()).filter((d) => d.required) : [];
  return data<JobInviteData>({
    kind: "invite",
    mode,
    invite: {
      email,
      songTitle: invite.songTitle,
      artistName: invite.artistName,
      ownerName: invite.ownerName,
      service: PP_SERVICE_LABELS[invite.job.service],
      notes: invite.job.notes,
    },
    currentEmail: mode === "mismatch" ? user!.email : null,
    loginHref: loginHref(request),
    documents: documents.map((d) => ({ id: d.id, name: d.name, slug: d.slug })),
  });
}

/**
 * Creates the invited engineer's account (verified: the signed link reached the invited mailbox) and binds
 * every pending job invited to that address, in one transaction; the required documents are signed right
 * after, as the box was ticked.
 */
export async function createAccountFromJobInvite(input: {
  jobId: number;
  name: string;
  lastName: string;
  password: string;
  ip: string;
  userAgent: string;
}): Promise<{ user: User; jobId: number }> {
  const passwordHash = await hashPassword(input.password);
  let user: User;
  try {
    user = await db().transaction(async (tx) => {
      const [job] = await tx
        .select({ email: postProductionJobs.invitedEmail, engineerId: postProductionJobs.engineerId, status: postProductionJobs.status })
        .from(postProductionJobs)
        .where(eq(postProductionJobs.id, input.jobId));
      if (!job?.email || job.engineerId !== null || job.status !== "pending") throw new InviteClosedError();
      if (await findUserByEmail(job.email, tx)) throw new EmailTakenError();
      const now = new Date();
      const [created] = await tx
        .insert(users)
        .values({
          name: input.name,
          lastName: input.lastName,
          email: job.email.trim(),
          passwordHash,
          acctType: ACCT_MEMBER,
          roleId: 5,
          emailVerifiedAt: now,
          activatedAt: now,
        })
        .returning();
      await bindInvitedJobs(tx, created!, now);
      return created!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new EmailTakenError();
    throw error;
  }
  const pending = await pendingDocumentsFor(user.id);
  await signDocuments({ userId: user.id, documentIds: pending.map((d) => d.id), ip: input.ip, userAgent: input.userAgent });
  return { user, jobId: input.jobId };
}

export class InviteClosedError extends Error {
  constructor() {
    super("This invitation is no longer open. Log in to see your jobs.");
    this.name = "InviteClosedError";
  }
}

export async function jobInviteAction(request: Request, context: Context) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  if (intent === "logout") return endSession(request, selfPath(request));
  const { ip } = context.get(requestInfoContext);
  const submission = parseForm(formData, { schema: RegisterSchema });
  const refuse = (message: string, status: number) =>
    data<JobInviteActionData>({ intent: "register", result: submission.reply({ formErrors: [message], hideFields: HIDDEN }) }, { status });
  if (!hasValidSignature(request.url)) return refuse(INVALID_SIGNATURE, 403);
  const jobId = jobIdOf(request);
  if (!jobId) return refuse(NO_JOB, 404);
  if (intent !== "register") return refuse("Unknown form.", 400);
  if (submission.status !== "success")
    return data<JobInviteActionData>({ intent: "register", result: submission.reply({ hideFields: HIDDEN }) }, { status: 400 });
  if (getOptionalUser(context)) return refuse("You are logged in already. Log out first to create another account.", 400);
  try {
    const { user } = await createAccountFromJobInvite({
      jobId,
      name: submission.value.name,
      lastName: submission.value.lastName,
      password: submission.value.password,
      ip,
      userAgent: request.headers.get("user-agent") ?? "",
    });
    const response = await startUserSession(request, { userId: user.id, ip, redirectTo: jobPath(user.id, jobId) });
    response.headers.append("Set-Cookie", await flashHeader({ kind: "success", message: `Welcome, ${fullName(user)}. Here is the job: accept it to start.` }));
    return response;
  } catch (error) {
    if (error instanceof EmailTakenError) return refuse("An account with this email address exists already. Log in to see the job.", 409);
    if (error instanceof InviteClosedError) return refuse(error.message, 410);
    throw error;
  }
}
