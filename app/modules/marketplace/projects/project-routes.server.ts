import type { SubmissionResult } from "@conform-to/react";
import { data, redirect, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { pageParam } from "~/components/pagination";
import { projectStages, projectStatuses, marketplaceServices, type User } from "~/db/schema";
import { idOr404, requireAdminUser, requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { requireFreshConfirmation } from "~/modules/accounts/step-up.server";
import { hasTwoFactor } from "~/modules/accounts/two-factor.server";
import { requireFreshCode } from "~/modules/accounts/step-up.server";
import { requestInfoContext } from "~/request-context";
import { TWO_FACTOR_REQUIRED, twoFactorSetupPath } from "~/modules/accounts/two-factor-rules";
import { redirectAfterSuccess, redirectWithFlash } from "~/modules/flash/flash.server";
import { notFound, routeError } from "~/modules/http/route-errors.server";
import { dollarsField, formatCents, microsToCentsFloor } from "~/modules/ledger/money";
import { availableCents } from "~/modules/payouts/payouts.server";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { FORM_BODY_MAX_BYTES } from "~/modules/security/body-limits";
import { MarketplaceError } from "../marketplace-errors";
import { feeCents, nextStage, SERVICE_LABELS } from "../marketplace-rules";
import { listMessages, postMessage } from "../messages.server";
import { MESSAGE_INTENT, MessageFormSchema, messagesForPage } from "../messages/message-thread";
import {
  adminListProjects,
  adminResolve,
  advanceStage,
  approveDelivery,
  cancelProject,
  fundProject,
  getProject,
  listMemberProjects,
  payProjectFromBalance,
  requestDeliveryRevision,
  type ProjectListRow,
  type Resolution,
} from "../projects.server";
import { leaveReview } from "../reviews.server";
import { receiveDeliverable } from "./deliverable-files.server";
import { cardFundingEnabled } from "../checkout.server";
import { confirmProjectCheckout, startProjectCheckout } from "./project-checkout.server";

/**
 * The project pages: the member's list and project page, the admin list and project page. Route
 * modules stay thin: loader = guard → service → view data; action = guard → parse (zod, Conform) → service →
 * redirect with a flash, or the form's reply beside its fields (400), 404 for a project the actor may not see.
 *
 * Money decisions by an administrator (confirm funding, resolve a dispute, cancel with a refund) need
 * two-factor authentication on, as paying a payout does (decision 022): releasing escrow pays a provider.
 */

type Context = Readonly<RouterContextProvider>;
interface Args {
  request: Request;
  params: Record<string, string | undefined>;
  context: Context;
}

export type ProjectForm = "checkout" | "balance" | "fund" | "advance" | "upload" | "approve" | "revision" | "cancel" | "review" | "resolve" | "message";
export interface ProjectActionData {
  form: ProjectForm;
  result: SubmissionResult<string[]>;
}

const reply = (form: ProjectForm, result: SubmissionResult<string[]>, status = 400) => data<ProjectActionData>({ form, result }, { status });

export const STATUS_LABELS: Record<string, string> = {
  awaiting_funding: "Awaiting funding",
  in_progress: "In progress",
  awaiting_approval: "Awaiting approval",
  revision_requested: "Revision requested",
  completed: "Completed",
  canceled: "Canceled",
};
export const FUNDING_LABELS: Record<string, string> = {
  unfunded: "Not funded",
  funded: "Funded (in escrow)",
  released: "Released",
  refunded: "Refunded",
  split: "Split",
};
const FUNDING_METHOD_LABELS: Record<string, string> = { manual: "Bank transfer", stripe: "Card", balance: "The client's Backline balance" };
/** A project's stage as shown: work has not started while it awaits funding. */
const shownStage = (p: { status: string; stage: string }) => (p.status === "awaiting_funding" ? "Not started" : stageLabel(p.stage));
export const stageLabel = (stage: string) => {
  const text = stage.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
};

const money = (cents: number | bigint) => formatCents(BigInt(cents));

/* ------------------------------------------------------------------ lists */

function listRow(r: ProjectListRow, href: string) {
  return {
    id: r.id,
    href,
    service: SERVICE_LABELS[r.service],
    stage: shownStage(r),
    status: r.status,
    statusLabel: STATUS_LABELS[r.status] ?? r.status,
    funding: FUNDING_LABELS[r.fundingStatus] ?? r.fundingStatus,
    amount: money(r.amountCents),
    clientName: r.clientName,
    providerName: r.providerName,
    createdAt: r.createdAt.toISOString(),
  };
}
export type ProjectRowView = ReturnType<typeof listRow>;

const oneOf = (value: string | null, options: readonly string[]) => (value && options.includes(value) ? value : "");

export async function memberProjectsLoader({ request, params, context }: Args) {
  const { memberId } = requireMemberAreaAccess(request, context, params.memberId);
  const search = new URL(request.url).searchParams;
  const query = {
    as: search.get("as") === "provider" ? ("provider" as const) : ("client" as const),
    status: oneOf(search.get("status"), projectStatuses),
    stage: oneOf(search.get("stage"), projectStages),
    page: pageParam(search.get("page")),
  };
  // The area's member (an administrator visiting sees that member's projects).
  const list = await listMemberProjects({ id: memberId }, query.as, query.page, { status: query.status, stage: query.stage });
  return { memberId, query, ...list, rows: list.rows.map((r) => listRow(r, `/member/${memberId}/project/${r.id}`)) };
}

export async function adminProjectsLoader({ request, context }: Args) {
  const { user } = requireAdminUser(request, context);
  const search = new URL(request.url).searchParams;
  const query = {
    status: oneOf(search.get("status"), projectStatuses),
    service: oneOf(search.get("service"), marketplaceServices),
    q: (search.get("q") ?? "").trim().slice(0, 100),
    page: pageParam(search.get("page")),
  };
  const list = await adminListProjects(user, query);
  return { query, ...list, rows: list.rows.map((r) => listRow(r, `/admin/project/${r.id}`)) };
}

/* ------------------------------------------------------------------ the project page */

async function projectView(user: User, id: number, area: "member" | "admin", memberId: number | null) {
  const [detail, messages] = await Promise.all([getProject(user, id), listMessages(user, { projectId: id })]);
  const { project: p, role } = detail;
  const awaitingFunding = p.status === "awaiting_funding" && p.fundingStatus === "unfunded";
  // The client's balance, read only when it can pay this project (one statement, on that page alone).
  const balanceCents = role === "client" && area === "member" && awaitingFunding ? await availableCents(user.id) : null;
  const fee = Number(feeCents(BigInt(p.amountCents), p.feeBps));
  const open = ["awaiting_funding", "in_progress", "awaiting_approval", "revision_requested"].includes(p.status);
  const funded = p.fundingStatus === "funded";
  const next = nextStage(p.service, p.stage);
  const settled = !["unfunded", "funded"].includes(p.fundingStatus);
  const base = area === "admin" ? "/admin" : `/member/${memberId}`;
  return {
    area,
    path: `${base}/project/${p.id}`,
    listPath: `${base}/projects`,
    workRequestPath: `${base}/work-request/${p.workRequestId}`,
    adminPath: `/admin/project/${p.id}`,
    viewerId: user.id,
    role,
    project: {
      id: p.id,
      workRequestId: p.workRequestId,
      service: SERVICE_LABELS[p.service],
      stage: shownStage(p),
      nextStage: next ? stageLabel(next) : null,
      status: p.status,
      statusLabel: STATUS_LABELS[p.status] ?? p.status,
      fundingStatus: p.fundingStatus,
      fundingLabel: FUNDING_LABELS[p.fundingStatus] ?? p.fundingStatus,
      paidBy: p.fundingMethod ? FUNDING_METHOD_LABELS[p.fundingMethod] : null,
      fundingReference: p.fundingReference,
      fundingMethod: p.fundingMethod,
      amountCents: p.amountCents,
      amount: money(p.amountCents),
      feePercent: (p.feeBps / 100).toLocaleString("en-US", { maximumFractionDigits: 2 }),
      fee: money(fee),
      providerReceives: money(p.amountCents - fee),
      revisionsUsed: p.revisionsUsed,
      revisionsIncluded: p.revisionsIncluded,
      pointsPercent: p.pointsBps ? (p.pointsBps / 100).toLocaleString("en-US", { maximumFractionDigits: 2 }) : null,
      dueAt: p.dueAt?.toISOString() ?? null,
      createdAt: p.createdAt.toISOString(),
      delivered: Boolean(p.firstDeliveredAt),
      resolution: p.resolution,
      settlement: settled
        ? {
            released: money(microsToCentsFloor(p.releasedMicros)),
            fee: money(microsToCentsFloor(p.feeMicros)),
            refunded: money(microsToCentsFloor(p.refundedMicros)),
          }
        : null,
    },
    provider: { name: detail.provider.name, type: detail.provider.type },
    client: { name: detail.client.name },
    deliverables: detail.deliverables.map((d) => ({
      id: d.id,
      fileName: d.fileName,
      bytes: d.bytes,
      mime: d.mime,
      round: d.round,
      createdAt: d.createdAt.toISOString(),
      href: `/storage/deliverables/${d.id}`,
    })),
    review: detail.review ? { rating: detail.review.rating, body: detail.review.body, createdAt: detail.review.createdAt.toISOString() } : null,
    messages: messagesForPage(messages),
    /** The client's available balance (whole cents), when the project awaits their payment. */
    balance: balanceCents === null ? null : { available: money(balanceCents), covers: balanceCents >= BigInt(p.amountCents) },
    can: {
      advance: role === "provider" && open && funded && next !== null,
      upload: role === "provider" && open && funded,
      approve: role === "client" && p.status === "awaiting_approval" && funded,
      revise: role === "client" && p.status === "awaiting_approval" && funded && p.revisionsUsed < p.revisionsIncluded,
      cancel: (role === "client" || role === "provider") && open && !p.firstDeliveredAt,
      review: role === "client" && p.status === "completed" && ["released", "split"].includes(p.fundingStatus) && !detail.review,
      message: role !== "admin",
      fund: area === "admin" && awaitingFunding,
      payByCard: role === "client" && awaitingFunding && cardFundingEnabled(),
      payFromBalance: role === "client" && area === "member" && awaitingFunding && balanceCents !== null && balanceCents >= BigInt(p.amountCents),
      resolve: area === "admin" && open && funded,
      adminCancel: area === "admin" && open,
    },
  };
}
export type ProjectView = Awaited<ReturnType<typeof projectView>>;

async function viewOr404(user: User, id: number, area: "member" | "admin", memberId: number | null) {
  try {
    return await projectView(user, id, area, memberId);
  } catch (error) {
    if (error instanceof MarketplaceError && error.status === 404) throw notFound();
    throw error;
  }
}

export async function memberProjectLoader({ request, params, context }: Args) {
  const { user, memberId } = requireMemberAreaAccess(request, context, params.memberId);
  const id = idOr404(params.id);
  const url = new URL(request.url);
  const checkout = url.searchParams.get("checkout");
  if (checkout) return checkoutReturn(user, id, url.pathname, checkout, url.searchParams.get("session_id") ?? "");
  return viewOr404(user, id, "member", memberId);
}

const CARD_PAID = "Your card payment is received: the money is held in escrow until you approve the delivery.";

/** The client back from Stripe Checkout: the payment is read from Stripe (never from the URL), then the plain page. */
async function checkoutReturn(user: User, id: number, path: string, checkout: string, sessionId: string) {
  if (checkout !== "done") return redirectWithFlash(path, { kind: "info", message: "The card payment was canceled: nothing was charged." });
  let outcome;
  try {
    outcome = await confirmProjectCheckout(user, id, sessionId);
  } catch (error) {
    if (error instanceof MarketplaceError && error.status === 404) throw notFound();
    throw error;
  }
  if (outcome === "funded" || outcome === "already") {
    return redirectAfterSuccess(path, doneId("checkout"), CARD_PAID);
  }
  if (outcome === "refunding") {
    return redirectWithFlash(path, {
      kind: "info",
      message:
        "This project was canceled or paid otherwise before your card payment arrived: the payment is being refunded to your card, and you will be notified when it is done.",
    });
  }
  if (outcome === "unpaid" || outcome === "unreachable") {
    return redirectWithFlash(path, { kind: "info", message: "Stripe has not confirmed the payment yet. This page shows it as funded once it does." });
  }
  return redirectWithFlash(path, { kind: "error", message: "That payment is not one for this project." });
}

export async function adminProjectLoader({ request, params, context }: Args) {
  const { user } = requireAdminUser(request, context);
  const [view, twoFactorOn] = await Promise.all([viewOr404(user, idOr404(params.id), "admin", null), hasTwoFactor(user.id)]);
  return { ...view, twoFactorOn, accountPath: twoFactorSetupPath(user.id) };
}

/* ------------------------------------------------------------------ actions */

const required = (message: string, max: number) => z.string({ error: message }).max(max, message);

const REASON = "Give a reason (3 to 500 characters).";
const NOTE = "Say what should change (3 to 2000 characters).";

export const MemberActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("checkout") }),
  z.object({ intent: z.literal("balance") }),
  z.object({ intent: z.literal("advance") }),
  z.object({ intent: z.literal("approve") }),
  z.object({ intent: z.literal("revision"), note: required(NOTE, 2000) }),
  z.object({ intent: z.literal("cancel"), reason: required(REASON, 500) }),
  z.object({
    intent: z.literal("review"),
    rating: required("Choose a rating from 1 to 5.", 3),
    body: z.string().max(5000, "A review is at most 5000 characters.").optional(),
  }),
  MessageFormSchema,
]);

export const AdminActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("fund"), reference: required("Enter the payment's reference (3 to 120 characters).", 120) }),
  z.object({
    intent: z.literal("resolve"),
    outcome: z.enum(["refund", "release", "split"], { error: "Choose refund, release or split." }),
    releaseAmount: z.string().max(20).optional(),
    reason: required(REASON, 500),
  }),
  z.object({ intent: z.literal("cancel"), reason: required(REASON, 500) }),
]);

const MONEY_INTENTS = new Set(["fund", "resolve", "cancel"]);

/** A refused service call: 404 as the area's Not Found, else the message beside its field (or above the form). */
function refused(
  form: ProjectForm,
  submission: { reply: (o?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]> },
  error: unknown,
) {
  if (error instanceof MarketplaceError) {
    if (error.status === 404) throw notFound();
    const result = error.field ? submission.reply({ fieldErrors: { [error.field]: [error.message] } }) : submission.reply({ formErrors: [error.message] });
    return reply(form, result, error.status);
  }
  throw error;
}

const doneId = (intent: string) => `${intent}-${Date.now().toString(36)}`;

function clientMeta(request: Request) {
  return { userAgent: request.headers.get("user-agent")?.slice(0, 300) ?? undefined };
}

export async function memberProjectAction({ request, params, context }: Args) {
  const { user, memberId } = requireMemberAreaAccess(request, context, params.memberId);
  const id = idOr404(params.id);
  const url = new URL(request.url);
  const path = url.pathname;

  if (url.searchParams.get("upload") === "deliverable") {
    const empty = parseForm(new FormData(), { schema: z.object({ file: z.string().optional() }) });
    try {
      const { deliverable } = await receiveDeliverable(request, user, id);
      return redirectAfterSuccess(path, doneId("upload"), `${deliverable.fileName} is delivered. The client was asked to approve it.`);
    } catch (error) {
      return refused("upload", empty, error);
    }
  }

  // Only the upload form may send a large body here (the path's limit is the deliverable's).
  if (Number(request.headers.get("content-length") ?? 0) > FORM_BODY_MAX_BYTES) throw routeError(413, "The form is too large.");
  const formData = await readForm(request);
  const rawIntent = String(formData.get("intent") ?? "");
  const form = (
    ["checkout", "balance", "advance", "approve", "revision", "cancel", "review", MESSAGE_INTENT].includes(rawIntent) ? rawIntent : "message"
  ) as ProjectForm;
  const submission = parseForm(formData, { schema: MemberActionSchema });
  if (submission.status !== "success") return reply(form, submission.reply());
  const value = submission.value;
  // An administrator visiting the member area acts as an administrator: the same guard as on the admin page.
  if (MONEY_INTENTS.has(value.intent) && user.acctType === 2) {
    if (!(await hasTwoFactor(user.id))) return reply(form, submission.reply({ formErrors: [TWO_FACTOR_REQUIRED] }), 403);
    await requireFreshCode(request, user, formData, context.get(requestInfoContext).ip);
  }
  try {
    if (value.intent === "balance") {
      // Paying from one's balance moves earnings like a payout request: the same fresh confirmation (decision 022).
      // Only the area's own member pays (an administrator visiting is refused before being asked to confirm).
      if (user.id !== memberId) throw notFound();
      await requireFreshConfirmation(request, user, formData, context.get(requestInfoContext).ip);
    }
    switch (value.intent) {
      case "balance": {
        const p = await payProjectFromBalance(user, id);
        return redirectAfterSuccess(
          path,
          doneId("balance"),
          `${money(p.amountCents)} from your Backline balance is held in escrow: the provider can start. It is released only when you approve the delivery.`,
        );
      }
      case "checkout": {
        const payAt = await startProjectCheckout(user, id, path);
        if (payAt) return redirect(payAt, 303);
        return redirectAfterSuccess(path, doneId("checkout"), CARD_PAID);
      }
      case "advance": {
        const p = await advanceStage(user, id);
        return redirectAfterSuccess(path, doneId("advance"), `The project is now ${stageLabel(p.stage).toLowerCase()}. The client was told.`);
      }
      case "approve": {
        const p = await approveDelivery(user, id, clientMeta(request));
        return redirectAfterSuccess(
          path,
          doneId("approve"),
          `The delivery is approved and the project completed: ${money(microsToCentsFloor(p.releasedMicros))} is released to the provider.`,
        );
      }
      case "revision": {
        const p = await requestDeliveryRevision(user, id, value.note);
        return redirectAfterSuccess(path, doneId("revision"), `Revision ${p.revisionsUsed} of ${p.revisionsIncluded} is requested. The provider was told.`);
      }
      case "cancel": {
        const p = await cancelProject(user, id, value.reason);
        return redirectAfterSuccess(
          path,
          doneId("cancel"),
          p.fundingStatus === "refunded" ? `The project is canceled; ${money(p.amountCents)} is refunded.` : "The project is canceled.",
        );
      }
      case "review": {
        await leaveReview(user, id, value.rating, value.body ?? "");
        return redirectAfterSuccess(path, doneId("review"), "Thank you: your review is published on the provider's profile.");
      }
      case "message": {
        const m = await postMessage(user, { projectId: id }, value.body);
        return redirectAfterSuccess(path, m.id, "Your message is sent.");
      }
    }
  } catch (error) {
    return refused(form, submission, error);
  }
}

export async function adminProjectAction({ request, params, context }: Args) {
  const { user } = requireAdminUser(request, context);
  const id = idOr404(params.id);
  const path = new URL(request.url).pathname;
  const formData = await readForm(request);
  const rawIntent = String(formData.get("intent") ?? "");
  const form = (["fund", "resolve", "cancel"].includes(rawIntent) ? rawIntent : "resolve") as ProjectForm;
  const submission = parseForm(formData, { schema: AdminActionSchema });
  if (submission.status !== "success") return reply(form, submission.reply());
  // Moving escrow (in, back to the client, or out to the provider's earnings) needs two-factor on (decision 022).
  if (!(await hasTwoFactor(user.id))) return reply(form, submission.reply({ formErrors: [TWO_FACTOR_REQUIRED] }), 403);
  // And a current code with it, or one within 5 minutes (decision 020).
  await requireFreshCode(request, user, formData, context.get(requestInfoContext).ip);
  const value = submission.value;
  try {
    if (value.intent === "fund") {
      const p = await fundProject(user, id, value.reference);
      return redirectAfterSuccess(path, doneId("fund"), `Project #${p.id} is funded: ${money(p.amountCents)} is held in escrow. Both parties were told.`);
    }
    if (value.intent === "cancel") {
      const p = await cancelProject(user, id, value.reason);
      return redirectAfterSuccess(
        path,
        doneId("cancel"),
        p.fundingStatus === "refunded" ? `Project #${p.id} is canceled; ${money(p.amountCents)} is refunded to the client.` : `Project #${p.id} is canceled.`,
      );
    }
    let resolution: Resolution;
    if (value.outcome === "split") {
      const part = dollarsField(value.releaseAmount, "Enter the provider's part in dollars and cents, such as 50.00.");
      if ("error" in part) return reply("resolve", submission.reply({ fieldErrors: { releaseAmount: [part.error] } }));
      resolution = { outcome: "split", releaseCents: Number(part.cents) };
    } else resolution = { outcome: value.outcome };
    const p = await adminResolve(user, id, resolution, value.reason, clientMeta(request));
    return redirectAfterSuccess(
      path,
      doneId("resolve"),
      `Project #${p.id} is resolved (${value.outcome}): ${money(microsToCentsFloor(p.releasedMicros))} to the provider's earnings, ${money(microsToCentsFloor(p.refundedMicros))} refunded to the client.`,
    );
  } catch (error) {
    return refused(form, submission, error);
  }
}
