import type { SubmissionResult } from "@conform-to/react";
import { data, redirect, type RouterContextProvider } from "react-router";
import { pageParam } from "~/components/pagination";
import { idOr404, requireAdminUser, requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { EmailTakenError, registerMember, sendAlreadyRegisteredEmail } from "~/modules/accounts/accounts.server";
import { getOptionalUser } from "~/modules/accounts/current-user.server";
import { isAdminAccount } from "~/modules/accounts/roles";
import { hasTwoFactor } from "~/modules/accounts/two-factor.server";
import { requireFreshCode } from "~/modules/accounts/step-up.server";
import { AFFILIATE_TWO_FACTOR_REQUIRED, twoFactorSetupPath } from "~/modules/accounts/two-factor-rules";
import { env } from "~/env.server";
import { redirectAfterSuccess, redirectWithFlash } from "~/modules/flash/flash.server";
import { notFound } from "~/modules/http/route-errors.server";
import { listPublishedDocuments, pendingDocumentsFor, signDocuments } from "~/modules/legal/legal.server";
import { formatCents, formatMicros, microsToCentsFloor } from "~/modules/ledger/money";
import { isHoneypotFilled } from "~/modules/security/honeypot.server";
import { hitRateLimit } from "~/modules/security/rate-limit.server";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { requestInfoContext } from "~/request-context";
import { notifyAdmins, notifyMember } from "~/modules/notifications/notifications.server";
import type { NotificationColor } from "~/db/schema";
import { DEFAULT_AFFILIATE_BPS, type Affiliate } from "~/db/schema";
import { commissionBps } from "~/modules/ledger/imports/sales-imports.server";
import { stripeEnabled } from "~/modules/payouts/stripe/client.server";
import {
  AffiliateError,
  affiliateFigures,
  affiliateOfUser,
  affiliateOwner,
  applyAsAffiliate,
  approveAffiliate,
  commissionLines,
  findAffiliate,
  listAffiliates,
  parseAffiliateListQuery,
  rejectAffiliate,
  setAffiliateRate,
  STATUS_LABELS,
  suspendAffiliate,
  AFFILIATE_PAGE_SIZE,
} from "./affiliates.server";
import { bindReferral, readRefTouch } from "./referrals.server";
import { AdminAffiliateActionSchema, AffiliateApplicationSchema, AffiliateSignUpSchema } from "./schemas";

/**
 * The affiliate pages' loaders and actions: /register/affiliate (public), the admin list and
 * page, and the member's affiliate dashboard. Thin over affiliates.server.ts; every id is checked against
 * the acting user (a member opening another's affiliate gets 404, as for a missing id).
 */

type Args = { request: Request; params: Record<string, string | undefined>; context: Readonly<RouterContextProvider> };

const money = (micros: bigint) => formatCents(microsToCentsFloor(micros));
const percent = (bps: number) => `${(bps / 100).toLocaleString("en-US", { maximumFractionDigits: 2 })}%`;

function affiliateSummary(a: Affiliate) {
  return {
    id: a.id,
    status: a.status,
    statusLabel: STATUS_LABELS[a.status],
    code: a.code,
    audience: a.audience,
    payoutMethod: a.payoutMethod === "stripe" ? "Stripe" : "Bank transfer (paid by hand)",
    commissionBps: a.commissionBps,
    rate: percent(a.commissionBps),
    reason: a.rejectionReason,
    createdAt: a.createdAt.toISOString(),
    decidedAt: a.decidedAt?.toISOString() ?? null,
  };
}

function links(code: string | null) {
  if (!code) return null;
  const base = env().APP_URL;
  return { register: `${base}/register?ref=${code}`, home: `${base}/legal-terms?ref=${code}` };
}

async function figuresView(affiliate: Affiliate) {
  const figures = await affiliateFigures(affiliate);
  return {
    clicks: figures.clicks,
    signUps: figures.signUps,
    activeReferrals: figures.activeReferrals,
    earned: money(figures.earnedMicros),
    earnedExact: formatMicros(figures.earnedMicros),
    byMonth: figures.byMonth.map((m) => ({ month: m.month, amount: formatMicros(m.amountMicros), cents: Number(microsToCentsFloor(m.amountMicros)) })),
  };
}

async function linesView(affiliateId: number, page: number) {
  const list = await commissionLines(affiliateId, page);
  return {
    page,
    pageSize: AFFILIATE_PAGE_SIZE,
    total: list.total,
    pageCount: list.pageCount,
    rows: list.rows.map((r) => ({
      id: r.postingId,
      date: r.createdAt,
      importId: r.importId,
      lineNo: r.lineNo,
      period: r.period,
      store: r.store,
      trackTitle: r.trackTitle,
      referred: r.referred.name,
      referredId: r.referred.id,
      base: formatMicros(r.baseMicros),
      rate: percent(r.commissionBps),
      amount: formatMicros(r.amountMicros),
    })),
  };
}

/* ------------------------------------------------------------------ admin */

export async function adminAffiliatesLoader({ request, context }: Args) {
  requireAdminUser(request, context);
  const query = parseAffiliateListQuery(new URL(request.url));
  const list = await listAffiliates(query);
  return {
    query: { status: query.status ?? "", q: query.q, page: query.page },
    page: query.page,
    pageSize: AFFILIATE_PAGE_SIZE,
    total: list.total,
    pageCount: list.pageCount,
    rows: list.rows.map((r) => ({
      id: r.id,
      href: `/admin/affiliate/${r.id}`,
      status: r.status,
      statusLabel: STATUS_LABELS[r.status],
      code: r.code,
      rate: percent(r.commissionBps),
      member: r.member.name,
      email: r.member.email,
      memberHref: `/admin/member/${r.member.id}`,
      referrals: r.referrals,
      earned: money(r.earnedMicros),
      createdAt: r.createdAt.toISOString(),
    })),
  };
}

export async function adminAffiliateLoader({ request, params, context }: Args) {
  const { user } = requireAdminUser(request, context);
  const affiliate = await findAffiliate(idOr404(params.id));
  if (!affiliate) throw notFound();
  const page = pageParam(new URL(request.url).searchParams.get("page"));
  const [owner, figures, lines, twoFactorOn] = await Promise.all([
    affiliateOwner(affiliate),
    figuresView(affiliate),
    linesView(affiliate.id, page),
    hasTwoFactor(user.id),
  ]);
  return {
    twoFactorOn,
    accountPath: twoFactorSetupPath(user.id),
    affiliate: affiliateSummary(affiliate),
    owner: owner ? { ...owner, href: `/admin/member/${owner.id}` } : null,
    links: links(affiliate.code),
    figures,
    lines,
    path: `/admin/affiliate/${affiliate.id}`,
    can: {
      approve: affiliate.status === "pending_approval" || affiliate.status === "suspended",
      reject: affiliate.status === "pending_approval",
      suspend: affiliate.status === "approved",
      rate: affiliate.status !== "rejected",
    },
  };
}

export type AdminAffiliateForm = "approve" | "reject" | "suspend" | "rate";
export interface AdminAffiliateActionData {
  form: AdminAffiliateForm | null;
  result: SubmissionResult<string[]>;
}

const MONEY_DECISIONS: ReadonlySet<AdminAffiliateForm> = new Set(["approve", "rate"]);

const DONE: Record<AdminAffiliateForm, string> = {
  approve: "The affiliate is approved: its links now count.",
  reject: "The application is rejected.",
  suspend: "The affiliate is suspended: its links no longer count and it earns nothing until approved again.",
  rate: "The commission rate is saved: it applies to commissions posted from now on.",
};

export async function adminAffiliateAction({ request, params, context }: Args) {
  const { user } = requireAdminUser(request, context);
  const id = idOr404(params.id);
  const formData = await readForm(request);
  const submission = parseForm(formData, { schema: AdminAffiliateActionSchema });
  const intent = formData.get("intent");
  const form = (["approve", "reject", "suspend", "rate"] as const).find((f) => f === intent) ?? null;
  if (submission.status !== "success") return data<AdminAffiliateActionData>({ form, result: submission.reply() }, { status: 400 });
  const value = submission.value;
  // Approving (its links start earning) and the rate move money: like payout and escrow decisions, they need
  // two-factor authentication on the administrator's account. Rejecting and suspending only stop money.
  if (MONEY_DECISIONS.has(value.intent)) {
    if (!(await hasTwoFactor(user.id))) {
      return data<AdminAffiliateActionData>({ form, result: submission.reply({ formErrors: [AFFILIATE_TWO_FACTOR_REQUIRED] }) }, { status: 403 });
    }
    // A current code with the decision, or one within 5 minutes (decision 020).
    await requireFreshCode(request, user, formData, context.get(requestInfoContext).ip);
  }
  let changed: Affiliate;
  try {
    if (value.intent === "approve") changed = await approveAffiliate(user.id, id);
    else if (value.intent === "reject") changed = await rejectAffiliate(user.id, id, value.reason);
    else if (value.intent === "suspend") changed = await suspendAffiliate(user.id, id, value.reason);
    else changed = await setAffiliateRate(user.id, id, value.commissionBps);
  } catch (error) {
    if (!(error instanceof AffiliateError)) throw error;
    if (error.status === 404) throw notFound();
    const result = error.field ? submission.reply({ fieldErrors: { [error.field]: [error.message] } }) : submission.reply({ formErrors: [error.message] });
    return data<AdminAffiliateActionData>({ form, result }, { status: error.status });
  }
  await tellOwner(changed, value.intent);
  return redirectAfterSuccess(`/admin/affiliate/${id}`, `${value.intent}-${Date.now().toString(36)}`, DONE[value.intent]);
}

const OWNER_MESSAGES: Record<AdminAffiliateForm, (a: Affiliate) => [string, NotificationColor]> = {
  approve: () => ["Your affiliate account is approved: your links are on your affiliate page.", "green"],
  reject: (a) => [`Your affiliate application was not accepted: ${a.rejectionReason ?? ""}`.trim(), "red"],
  suspend: (a) => [`Your affiliate account is suspended: ${a.rejectionReason ?? ""}`.trim(), "red"],
  rate: (a) => [`Your affiliate commission rate is now ${percent(a.commissionBps)} of the platform commission.`, "blue"],
};

const AFFILIATE_NOTIFICATION_TYPES: Record<AdminAffiliateForm, string> = {
  approve: "AffiliateApproved",
  reject: "AffiliateRejected",
  suspend: "AffiliateSuspended",
  rate: "AffiliateRateChanged",
};

/** The affiliate's owner hears about a decision (after it committed; a failed notification does not undo it). */
async function tellOwner(affiliate: Affiliate, intent: AdminAffiliateForm) {
  const [message, color] = OWNER_MESSAGES[intent](affiliate);
  try {
    await notifyMember(affiliate.userId, {
      type: AFFILIATE_NOTIFICATION_TYPES[intent],
      message,
      color,
      routeName: "member-affiliate",
      resourceId: affiliate.id,
    });
  } catch (error) {
    console.warn("affiliate notification failed", error);
  }
}

async function tellAdmins(affiliate: Affiliate) {
  try {
    await notifyAdmins({
      type: "AffiliateApplied",
      message: `A new affiliate application (#${affiliate.id}) waits for review.`,
      color: "orange",
      routeName: "admin-affiliate",
      resourceId: affiliate.id,
    });
  } catch (error) {
    console.warn("affiliate notification failed", error);
  }
}

/* ------------------------------------------------------------------ member */

export async function memberAffiliateLoader({ request, params, context }: Args) {
  const { user, memberId } = requireMemberAreaAccess(request, context, params.memberId);
  const id = idOr404(params.id);
  const affiliate = await findAffiliate(id);
  // Only the area's member's own affiliate (an administrator sees any member's, in that member's area).
  if (!affiliate || affiliate.userId !== memberId) throw notFound();
  const page = pageParam(new URL(request.url).searchParams.get("page"));
  const [figures, lines] = await Promise.all([figuresView(affiliate), linesView(affiliate.id, page)]);
  return {
    memberId,
    viewerIsAdmin: isAdminAccount(user) && user.id !== memberId,
    affiliate: affiliateSummary(affiliate),
    links: affiliate.status === "approved" ? links(affiliate.code) : null,
    figures,
    lines,
    incomePath: `/member/${memberId}/member-income`,
    payoutsPath: `/member/${memberId}/royalty-payment-requests`,
  };
}

/* ------------------------------------------------------------------ /register/affiliate */

/**
 * What an applicant is told before applying: the rate they will earn (the default every affiliate starts
 * at) and the platform commission it is a share of, and the payout methods this install offers (Stripe only
 * when it is configured).
 */
async function applicationTerms() {
  const platformBps = await commissionBps();
  return {
    rateBps: DEFAULT_AFFILIATE_BPS,
    platformBps,
    // Of each dollar a referred member earns before the commission: the rate of the platform's part.
    perDollarBps: Math.round((DEFAULT_AFFILIATE_BPS * platformBps) / 10_000),
    stripe: stripeEnabled(),
  };
}

export async function registerAffiliateLoader({ context }: Args) {
  const user = getOptionalUser(context);
  const terms = await applicationTerms();
  if (user) {
    if (isAdminAccount(user)) return { mode: "admin" as const, documents: [], terms };
    const own = await affiliateOfUser(user.id);
    if (own) throw redirect(`/member/${user.id}/affiliate/${own.id}`);
    return { mode: "member" as const, documents: [], name: user.name, terms };
  }
  const documents = (await listPublishedDocuments()).filter((d) => d.required);
  return { mode: "visitor" as const, documents, terms };
}

/** Stripe is chosen only where it is configured (the form does not offer it otherwise; a crafted post is refused). */
const STRIPE_UNAVAILABLE = "Stripe is not available here: choose a bank transfer.";

const HIDDEN = ["password", "passwordConfirmation"];

export async function registerAffiliateAction({ request, context }: Args) {
  const user = getOptionalUser(context);
  const formData = await readForm(request);
  if (user) {
    const submission = parseForm(formData, { schema: AffiliateApplicationSchema });
    if (submission.status !== "success") return data(submission.reply(), { status: 400 });
    if (submission.value.payoutMethod === "stripe" && !stripeEnabled())
      return data(submission.reply({ fieldErrors: { payoutMethod: [STRIPE_UNAVAILABLE] } }), { status: 400 });
    if (isAdminAccount(user))
      return data(submission.reply({ formErrors: ["Administrators cannot apply as affiliates: log in with a member account."] }), { status: 403 });
    try {
      const affiliate = await applyAsAffiliate(user.id, submission.value);
      await tellAdmins(affiliate);
      return redirectWithFlash(`/member/${user.id}/affiliate/${affiliate.id}`, {
        kind: "success",
        message: "Your application is sent. An administrator will review it; you will get your links once it is approved.",
      });
    } catch (error) {
      if (!(error instanceof AffiliateError)) throw error;
      return data(submission.reply({ formErrors: [error.message] }), { status: error.status });
    }
  }
  const submission = parseForm(formData, { schema: AffiliateSignUpSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: HIDDEN }), { status: 400 });
  if (submission.value.payoutMethod === "stripe" && !stripeEnabled()) {
    return data(submission.reply({ fieldErrors: { payoutMethod: [STRIPE_UNAVAILABLE] }, hideFields: HIDDEN }), { status: 400 });
  }
  if (isHoneypotFilled(formData)) return data(submission.reply({ formErrors: ["We could not create this account."], hideFields: HIDDEN }), { status: 400 });
  const limit = await hitRateLimit(`register:ip:${context.get(requestInfoContext).ip}`, 20, 60 * 60);
  if (!limit.allowed)
    return data(submission.reply({ formErrors: ["Too many accounts were created from here. Please try again later."], hideFields: HIDDEN }), { status: 429 });
  const { audience, payoutMethod, ...account } = submission.value;
  // The same answer whether or not the address has an account (no enumeration), as /register.
  const checkYourMail = () =>
    redirectWithFlash("/login", {
      kind: "success",
      message: `Almost there: we sent a message to ${account.email}. Open it to continue; your affiliate application is reviewed meanwhile.`,
    });
  const touch = await readRefTouch(request.headers.get("Cookie"));
  try {
    let application: Affiliate | null = null;
    const created = await registerMember(account, {
      onCreated: async (tx, newUser) => {
        await bindReferral(tx, newUser.id, touch);
        application = await applyAsAffiliate(newUser.id, { audience, payoutMethod }, tx);
      },
    });
    if (application) await tellAdmins(application);
    const pending = await pendingDocumentsFor(created.id);
    await signDocuments({
      userId: created.id,
      documentIds: pending.map((d) => d.id),
      ip: context.get(requestInfoContext).ip,
      userAgent: request.headers.get("user-agent") ?? "",
    });
    return checkYourMail();
  } catch (error) {
    if (!(error instanceof EmailTakenError)) throw error;
    await sendAlreadyRegisteredEmail(account.email);
    return checkYourMail();
  }
}
