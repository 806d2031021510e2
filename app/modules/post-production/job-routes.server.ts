import type { SubmissionResult } from "@conform-to/react";
import { data, redirect, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { pageParam } from "~/components/pagination";
import { postProductionServices, postProductionStatuses, type PostProductionStatus, type User } from "~/db/schema";
import { idOr404, parseId, requireAdminUser, requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { isAdminAccount } from "~/modules/accounts/roles";
import { requireFreshConfirmation } from "~/modules/accounts/step-up.server";
import { hasTwoFactor } from "~/modules/accounts/two-factor.server";
import { TWO_FACTOR_REQUIRED, twoFactorSetupPath } from "~/modules/accounts/two-factor-rules";
import { formatCents, microsToCentsFloor } from "~/modules/ledger/money";
import { feeCents } from "~/modules/marketplace/marketplace-rules";
import { availableCents } from "~/modules/payouts/payouts.server";
import { requestInfoContext } from "~/request-context";
import { redirectAfterSuccess, redirectWithFlash } from "~/modules/flash/flash.server";
import { notFound, routeError } from "~/modules/http/route-errors.server";
import { cardFundingEnabled } from "~/modules/marketplace/checkout.server";
import { MarketplaceError } from "~/modules/marketplace/marketplace-errors";
import { FORM_BODY_MAX_BYTES } from "~/modules/security/body-limits";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { confirmJobCheckout, startJobCheckout } from "./job-checkout.server";
import { createJob, ownerSongOptions } from "./job-creation.server";
import { receiveDelivery } from "./job-deliveries.server";
import { adminListJobs, getJob, type JobListRow, listMemberJobs } from "./job-queries.server";
import {
  acceptDeliveryAsAudio,
  acceptJob,
  advanceJobStage,
  cancelJob,
  declineJob,
  fundJob,
  jobTransferReference,
  payJobFromBalance,
  requestJobRevision,
} from "./job-transitions.server";
import { PP_LIMITS, PP_OPEN_STATUSES, PP_SERVICE_LABELS, PP_STATUS_LABELS, ppNextStage, ppStageLabel } from "./post-production-rules";

/**
 * The post-production pages (decision 023): the member's list (with the form that starts a job) and
 * job page, the admin list and read-only job page (an administrator may cancel, with a reason). Loader = guard
 * → service → view data; action = guard → parse (zod, Conform) → service → redirect with a flash, or the
 * form's reply beside its fields (400); a job the viewer may not see is the area's 404, as a missing id.
 */

type Context = Readonly<RouterContextProvider>;
interface Args {
  request: Request;
  params: Record<string, string | undefined>;
  context: Context;
}

export type JobForm = "create" | "checkout" | "balance" | "fund" | "accept" | "decline" | "advance" | "upload" | "accept-audio" | "revision" | "cancel";
export interface JobActionData {
  form: JobForm;
  result: SubmissionResult<string[]>;
}

const reply = (form: JobForm, result: SubmissionResult<string[]>, status = 400) => data<JobActionData>({ form, result }, { status });

type Replier = { reply: (o?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]> };

/** A refused service call: 404 as the area's Not Found, else the message beside its field (or above the form). */
function refused(form: JobForm, submission: Replier, error: unknown) {
  if (error instanceof MarketplaceError) {
    if (error.status === 404) throw notFound();
    const result = error.field ? submission.reply({ fieldErrors: { [error.field]: [error.message] } }) : submission.reply({ formErrors: [error.message] });
    return reply(form, result, error.status);
  }
  throw error;
}

const doneId = (intent: string) => `${intent}-${Date.now().toString(36)}`;
const oneOf = (value: string | null, options: readonly string[]) => (value && options.includes(value) ? value : "");

/* ------------------------------------------------------------------ lists */

function listRow(r: JobListRow, href: string) {
  return {
    id: r.id,
    href,
    service: PP_SERVICE_LABELS[r.service],
    songTitle: r.songTitle,
    ownerName: r.ownerName,
    engineer: r.engineerName ?? (r.invitedEmail ? `${r.invitedEmail} (invited)` : "—"),
    stage: ppStageLabel(r.stage),
    status: r.status,
    statusLabel: PP_STATUS_LABELS[r.status],
    createdAt: r.createdAt.toISOString(),
  };
}
export type JobRowView = ReturnType<typeof listRow>;

export const CreateJobSchema = z.object({
  songId: z.string({ error: "Choose one of your songs." }).regex(/^[1-9][0-9]{0,9}$/, "Choose one of your songs."),
  service: z.enum(postProductionServices, { error: "Choose mixing, mastering, or mixing and mastering." }),
  engineerEmail: z
    .string({ error: "Enter the engineer's email address." })
    .trim()
    .max(PP_LIMITS.emailMax, "Enter the engineer's email address.")
    .email("Enter the engineer's email address."),
  // Checked in full by the service (parseJobAmount), whose message is the same.
  amount: z
    .string({ error: "Enter the price in dollars and cents, such as 150.00 (at most $1,000,000.00)." })
    .max(20, "Enter the price in dollars and cents, such as 150.00 (at most $1,000,000.00)."),
  notes: z.string().max(PP_LIMITS.notesMax, `Notes are at most ${PP_LIMITS.notesMax} characters.`).optional(),
});

export async function memberJobsLoader({ request, params, context }: Args) {
  const { user, memberId } = requireMemberAreaAccess(request, context, params.memberId);
  const search = new URL(request.url).searchParams;
  const query = {
    as: search.get("as") === "engineer" ? ("engineer" as const) : ("owner" as const),
    status: oneOf(search.get("status"), postProductionStatuses),
    page: pageParam(search.get("page")),
  };
  // The form to start a job is the member's own (an administrator visiting reads the lists only).
  const own = user.id === memberId;
  const [list, songOptions] = await Promise.all([
    listMemberJobs(memberId, query.as, query.page, { status: query.status }),
    own ? ownerSongOptions(memberId) : Promise.resolve(null),
  ]);
  const preselected = parseId(search.get("song"));
  return {
    memberId,
    query,
    ...list,
    rows: list.rows.map((r) => listRow(r, `/member/${memberId}/post-production-job/${r.id}`)),
    songs: songOptions?.map((s) => ({ id: s.id, label: `${s.title}${s.version ? ` (${s.version})` : ""} — ${s.artistName}` })) ?? null,
    preselectedSongId: preselected && songOptions?.some((s) => s.id === preselected) ? preselected : null,
  };
}

export async function memberJobsAction({ request, params, context }: Args) {
  const { user, memberId } = requireMemberAreaAccess(request, context, params.memberId);
  if (user.id !== memberId || isAdminAccount(user)) throw notFound();
  const formData = await readForm(request);
  const submission = parseForm(formData, { schema: CreateJobSchema });
  if (submission.status !== "success") return reply("create", submission.reply());
  const v = submission.value;
  try {
    const { job, inviteUrl } = await createJob(user, {
      songId: Number(v.songId),
      service: v.service,
      amount: v.amount,
      engineerEmail: v.engineerEmail,
      notes: v.notes ?? "",
    });
    return redirectAfterSuccess(
      `/member/${memberId}/post-production-job/${job.id}`,
      doneId("create"),
      inviteUrl
        ? `The job is created: ${v.engineerEmail} was invited by email to create an account and answer it.`
        : "The job is created: the engineer was asked to accept it.",
    );
  } catch (error) {
    return refused("create", submission, error);
  }
}

export async function adminJobsLoader({ request, context }: Args) {
  const { user } = requireAdminUser(request, context);
  const search = new URL(request.url).searchParams;
  const query = {
    status: oneOf(search.get("status"), postProductionStatuses),
    service: oneOf(search.get("service"), postProductionServices),
    q: (search.get("q") ?? "").trim().slice(0, 100),
    page: pageParam(search.get("page")),
  };
  const list = await adminListJobs(user, query);
  return { query, ...list, rows: list.rows.map((r) => listRow(r, `/admin/post-production-job/${r.id}`)) };
}

/* ------------------------------------------------------------------ the job page */

const FUNDING_LABELS: Record<string, string> = {
  unfunded: "Not funded",
  funded: "Funded (in escrow)",
  released: "Released to the engineer",
  refunded: "Refunded",
  split: "Split",
};
const FUNDING_METHOD_LABELS: Record<string, string> = { manual: "Bank transfer", stripe: "Card", balance: "The owner's Backline balance" };
const money = (cents: number | bigint) => formatCents(BigInt(cents));

async function jobView(user: User, id: number, area: "member" | "admin", memberId: number | null) {
  const detail = await getJob(user, id);
  const { job: j, role } = detail;
  const awaitingFunding = j.status === "awaiting_funding" && j.fundingStatus === "unfunded";
  // The owner's balance, read only when they can pay this job from it (one statement, on that page alone).
  const balanceCents = role === "owner" && area === "member" && awaitingFunding && j.amountCents !== null ? await availableCents(user.id) : null;
  const fee = j.amountCents !== null && j.feeBps !== null ? Number(feeCents(BigInt(j.amountCents), j.feeBps)) : null;
  const base = area === "admin" ? "/admin" : `/member/${memberId}`;
  const open = (PP_OPEN_STATUSES as readonly string[]).includes(j.status);
  const next = j.status === "in_progress" || j.status === "revision_requested" ? ppNextStage(j.service, j.stage) : null;
  const stageList = ["mixing", "mastering", "mixing_and_mastering"].includes(j.service) ? j.service : "mixing";
  return {
    area,
    path: `${base}/post-production-job/${j.id}`,
    listPath: `${base}/post-production-jobs`,
    adminPath: `/admin/post-production-job/${j.id}`,
    role,
    job: {
      id: j.id,
      service: PP_SERVICE_LABELS[j.service],
      serviceKey: stageList,
      status: j.status as PostProductionStatus,
      statusLabel: PP_STATUS_LABELS[j.status],
      stage: j.stage,
      stageLabel: ppStageLabel(j.stage),
      nextStage: next,
      nextStageLabel: next ? ppStageLabel(next) : null,
      notes: j.notes,
      revisionNote: j.status === "revision_requested" ? j.revisionNote : null,
      revisions: j.revisions,
      cancelReason: j.cancelReason,
      invited: Boolean(j.invitedEmail),
      bound: Boolean(j.engineerId),
      createdAt: j.createdAt.toISOString(),
      completedAt: j.completedAt?.toISOString() ?? null,
      previousAudio: j.previousAudio
        ? { format: j.previousAudio.format, durationSeconds: j.previousAudio.durationSeconds, had: Boolean(j.previousAudio.path) }
        : null,
      acceptedDeliveryId: j.acceptedDeliveryId,
    },
    /** The job's price and escrow (decision 023); null for a job made before jobs had a price. */
    money:
      j.amountCents !== null && fee !== null
        ? {
            amount: money(j.amountCents),
            feePercent: ((j.feeBps ?? 0) / 100).toLocaleString("en-US", { maximumFractionDigits: 2 }),
            fee: money(fee),
            engineerReceives: money(j.amountCents - fee),
            fundingStatus: j.fundingStatus,
            fundingLabel: FUNDING_LABELS[j.fundingStatus] ?? j.fundingStatus,
            paidBy: j.fundingMethod ? FUNDING_METHOD_LABELS[j.fundingMethod] : null,
            transferReference: jobTransferReference(j.id),
            settlement: ["released", "refunded", "split"].includes(j.fundingStatus)
              ? {
                  released: money(microsToCentsFloor(j.releasedMicros)),
                  fee: money(microsToCentsFloor(j.feeMicros)),
                  refunded: money(microsToCentsFloor(j.refundedMicros)),
                }
              : null,
          }
        : null,
    /** The owner's available balance, when the job awaits their payment. */
    balance: balanceCents === null ? null : { available: money(balanceCents), covers: balanceCents >= BigInt(j.amountCents!) },
    song: {
      ...detail.song,
      href: area === "admin" ? `/admin/song-profile/${detail.song.id}` : role === "owner" ? `/member/${memberId}/song-profile/${detail.song.id}` : null,
      sourceHref: open && detail.song.hasAudio ? `/storage/post-production/source/${j.id}` : null,
    },
    owner: detail.owner,
    engineer: detail.engineer,
    deliveries: detail.deliveries.map((d) => ({
      id: d.id,
      fileName: d.fileName,
      bytes: d.bytes,
      audio: `${d.format.toUpperCase()} · ${d.bitDepth}-bit / ${(d.sampleRate / 1000).toLocaleString("en-US")} kHz · ${d.channels === 1 ? "mono" : d.channels === 2 ? "stereo" : `${d.channels} channels`} · ${Math.floor(d.durationSeconds / 60)}:${String(d.durationSeconds % 60).padStart(2, "0")}`,
      round: d.round,
      accepted: d.id === j.acceptedDeliveryId,
      createdAt: d.createdAt.toISOString(),
      href: `/storage/post-production/${d.id}`,
    })),
    can: {
      accept: role === "engineer" && j.status === "pending",
      decline: role === "engineer" && j.status === "pending",
      advance: role === "engineer" && next !== null,
      upload: role === "engineer" && ["in_progress", "revision_requested", "delivered"].includes(j.status),
      acceptAudio: role === "owner" && j.status === "delivered",
      revise: role === "owner" && j.status === "delivered",
      cancel: (role === "owner" || role === "engineer") && ["pending", "awaiting_funding", "in_progress"].includes(j.status) && !j.firstDeliveredAt,
      payFromBalance: role === "owner" && area === "member" && awaitingFunding && balanceCents !== null && balanceCents >= BigInt(j.amountCents!),
      // Offered only where Stripe is configured (decision 023, as projects).
      payByCard: role === "owner" && area === "member" && awaitingFunding && j.amountCents !== null && cardFundingEnabled(),
      fund: area === "admin" && awaitingFunding,
      adminCancel: area === "admin" && open,
    },
  };
}
export type JobView = Awaited<ReturnType<typeof jobView>>;

async function viewOr404(user: User, id: number, area: "member" | "admin", memberId: number | null) {
  try {
    return await jobView(user, id, area, memberId);
  } catch (error) {
    if (error instanceof MarketplaceError && error.status === 404) throw notFound();
    throw error;
  }
}

export async function memberJobLoader({ request, params, context }: Args) {
  const { user, memberId } = requireMemberAreaAccess(request, context, params.memberId);
  const id = idOr404(params.id);
  const url = new URL(request.url);
  const checkout = url.searchParams.get("checkout");
  if (checkout) return checkoutReturn(user, id, url.pathname, checkout, url.searchParams.get("session_id") ?? "");
  // An administrator visiting a member's area reads the job as that area shows it, without acting.
  return viewOr404(user, id, "member", memberId);
}

const CARD_PAID = "Your card payment is received: the money is held in escrow until you accept a delivery. The engineer can start.";

/** The owner back from Stripe Checkout: the payment is read from Stripe (never from the URL), then the plain page. */
async function checkoutReturn(user: User, id: number, path: string, checkout: string, sessionId: string) {
  if (checkout !== "done") return redirectWithFlash(path, { kind: "info", message: "The card payment was canceled: nothing was charged." });
  let outcome;
  try {
    outcome = await confirmJobCheckout(user, id, sessionId);
  } catch (error) {
    if (error instanceof MarketplaceError && error.status === 404) throw notFound();
    throw error;
  }
  if (outcome === "funded" || outcome === "already") return redirectAfterSuccess(path, doneId("checkout"), CARD_PAID);
  if (outcome === "refunding") {
    return redirectWithFlash(path, {
      kind: "info",
      message:
        "This job was canceled or paid otherwise before your card payment arrived: the payment is being refunded to your card, and you will be notified when it is done.",
    });
  }
  if (outcome === "unpaid" || outcome === "unreachable") {
    return redirectWithFlash(path, { kind: "info", message: "Stripe has not confirmed the payment yet. This page shows it as funded once it does." });
  }
  return redirectWithFlash(path, { kind: "error", message: "That payment is not one for this job." });
}

export async function adminJobLoader({ request, params, context }: Args) {
  const { user } = requireAdminUser(request, context);
  const [view, twoFactorOn] = await Promise.all([viewOr404(user, idOr404(params.id), "admin", null), hasTwoFactor(user.id)]);
  return { ...view, twoFactorOn, accountPath: twoFactorSetupPath(user.id) };
}

/* ------------------------------------------------------------------ actions */

const REASON = `Give a reason (${PP_LIMITS.reasonMin} to ${PP_LIMITS.reasonMax} characters).`;
const NOTE = `Say what should change (${PP_LIMITS.noteMin} to ${PP_LIMITS.noteMax} characters).`;
const text = (message: string, min: number, max: number) => z.string({ error: message }).trim().min(min, message).max(max, message);

export const MemberJobActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("checkout") }),
  z.object({ intent: z.literal("balance") }),
  z.object({ intent: z.literal("accept") }),
  z.object({ intent: z.literal("decline"), reason: z.string().max(PP_LIMITS.reasonMax, `A reason is at most ${PP_LIMITS.reasonMax} characters.`).optional() }),
  z.object({ intent: z.literal("advance") }),
  z.object({ intent: z.literal("accept-audio") }),
  z.object({ intent: z.literal("revision"), note: text(NOTE, PP_LIMITS.noteMin, PP_LIMITS.noteMax) }),
  z.object({ intent: z.literal("cancel"), reason: text(REASON, PP_LIMITS.reasonMin, PP_LIMITS.reasonMax) }),
]);

export const AdminJobActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("cancel"), reason: text(REASON, PP_LIMITS.reasonMin, PP_LIMITS.reasonMax) }),
  z.object({ intent: z.literal("fund"), reference: text("Enter the payment's reference (3 to 120 characters).", 3, 120) }),
]);

const MEMBER_FORMS: JobForm[] = ["checkout", "balance", "accept", "decline", "advance", "accept-audio", "revision", "cancel"];

export async function memberJobAction({ request, params, context }: Args) {
  const { user, memberId } = requireMemberAreaAccess(request, context, params.memberId);
  // Members act in their own area; an administrator acts on the admin page.
  if (user.id !== memberId) throw notFound();
  const id = idOr404(params.id);
  const url = new URL(request.url);
  const path = url.pathname;

  if (url.searchParams.get("upload") === "delivery") {
    const empty = parseForm(new FormData(), { schema: z.object({ file: z.string().optional() }) });
    try {
      const { delivery } = await receiveDelivery(request, user, id);
      return redirectAfterSuccess(path, doneId("upload"), `${delivery.fileName} is delivered. The song's owner was asked to accept it.`);
    } catch (error) {
      return refused("upload", empty, error);
    }
  }

  // Only the upload form may send a large body here (the path's limit is the delivery's).
  if (Number(request.headers.get("content-length") ?? 0) > FORM_BODY_MAX_BYTES) throw routeError(413, "The form is too large.");
  const formData = await readForm(request);
  const rawIntent = String(formData.get("intent") ?? "");
  const form = (MEMBER_FORMS as string[]).includes(rawIntent) ? (rawIntent as JobForm) : "accept";
  const submission = parseForm(formData, { schema: MemberJobActionSchema });
  if (submission.status !== "success") return reply(form, submission.reply());
  const value = submission.value;
  // Paying from one's balance moves earnings like a payout request: the same fresh confirmation (decision 022).
  if (value.intent === "balance") await requireFreshConfirmation(request, user, formData, context.get(requestInfoContext).ip);
  try {
    switch (value.intent) {
      case "checkout": {
        const payAt = await startJobCheckout(user, id, path);
        if (payAt) return redirect(payAt, 303);
        return redirectAfterSuccess(path, doneId("checkout"), CARD_PAID);
      }
      case "balance": {
        const j = await payJobFromBalance(user, id);
        return redirectAfterSuccess(
          path,
          doneId("balance"),
          `${money(j.amountCents!)} from your Backline balance is held in escrow: the engineer can start. It is released when you accept a delivery.`,
        );
      }
      case "accept": {
        const j = await acceptJob(user, id);
        return redirectAfterSuccess(
          path,
          doneId("accept"),
          j.status === "awaiting_funding"
            ? `You accepted the job: the owner was asked to pay ${money(j.amountCents!)} into escrow. Start once it is funded (you are notified).`
            : `You accepted the job: it is now ${ppStageLabel(j.stage).toLowerCase()}.`,
        );
      }
      case "decline": {
        await declineJob(user, id, value.reason ?? "");
        return redirectAfterSuccess(path, doneId("decline"), "You declined the job. The song's owner was told.");
      }
      case "advance": {
        const j = await advanceJobStage(user, id);
        return redirectAfterSuccess(path, doneId("advance"), `The job is now ${ppStageLabel(j.stage).toLowerCase()}. The song's owner was told.`);
      }
      case "accept-audio": {
        const { job, delivery } = await acceptDeliveryAsAudio(user, id);
        const paid = job.fundingStatus === "released" ? ` ${money(microsToCentsFloor(job.releasedMicros))} is released to the engineer.` : "";
        return redirectAfterSuccess(path, doneId("accept-audio"), `${delivery.fileName} is now the song's audio. The job is completed.${paid}`);
      }
      case "revision": {
        await requestJobRevision(user, id, value.note);
        return redirectAfterSuccess(path, doneId("revision"), "A revision is requested. The engineer was told.");
      }
      case "cancel": {
        const j = await cancelJob(user, id, value.reason);
        return redirectAfterSuccess(
          path,
          doneId("cancel"),
          j.fundingStatus === "refunded"
            ? `The job is canceled; ${money(microsToCentsFloor(j.refundedMicros))} is refunded to the owner.`
            : "The job is canceled.",
        );
      }
    }
  } catch (error) {
    return refused(form, submission, error);
  }
}

export async function adminJobAction({ request, params, context }: Args) {
  const { user } = requireAdminUser(request, context);
  const id = idOr404(params.id);
  const path = new URL(request.url).pathname;
  const formData = await readForm(request);
  const form: JobForm = formData.get("intent") === "fund" ? "fund" : "cancel";
  const submission = parseForm(formData, { schema: AdminJobActionSchema });
  if (submission.status !== "success") return reply(form, submission.reply());
  const value = submission.value;
  try {
    // Moving escrow (in, or back to the owner) needs two-factor on, as on projects (decision 022).
    const movesMoney = value.intent === "fund" || (await getJob(user, id)).job.fundingStatus === "funded";
    if (movesMoney && !(await hasTwoFactor(user.id))) return reply(form, submission.reply({ formErrors: [TWO_FACTOR_REQUIRED] }), 403);
    if (value.intent === "fund") {
      const j = await fundJob(user, id, value.reference);
      return redirectAfterSuccess(
        path,
        doneId("fund"),
        `Post-production job #${j.id} is funded: ${money(j.amountCents!)} is held in escrow. Both parties were told.`,
      );
    }
    const j = await cancelJob(user, id, value.reason);
    const refund = j.fundingStatus === "refunded" ? `; ${money(microsToCentsFloor(j.refundedMicros))} is refunded to the owner` : "";
    return redirectAfterSuccess(path, doneId("cancel"), `Post-production job #${j.id} is canceled${refund}. Both parties were told.`);
  } catch (error) {
    return refused(form, submission, error);
  }
}
