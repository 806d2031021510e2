import { and, eq, isNull } from "drizzle-orm";
import { db } from "~/db/client.server";
import { releaseStatusHistory, releases, songs, type NotificationColor, type Release, type ReleaseRejectionReason, type ReleaseStatus } from "~/db/schema";
import { isAdminAccount } from "~/modules/accounts/roles";
import { todayUtc, type ReleaseDetail } from "~/modules/catalog/catalog.server";
import { notifyMember } from "~/modules/notifications/notifications.server";
import { assignIsrc, assignUpc } from "./code-ranges.server";
import { blockingProblems, releasePreflight, type PreflightArea, type ReleasePreflightProblem } from "./preflight.server";
import type { Actor, ReleaseRights } from "./release-access.server";
import { RELEASE_STATUS_LABELS } from "./release-options";
import { deliverOnApproval } from "~/modules/catalog/delivery/delivery.server";

/**
 * A release's life (app/db/schema/core.ts): draft|rejected -> pending_approval (submit, refused while the preflight
 * has blocking problems) -> approved | rejected (review) ; approved -> in_distribution ; approved |
 * in_distribution -> takedown_requested (owner or admin, with a reason) -> taken_down (admin).
 * Each transition is ONE conditional `UPDATE ... WHERE id = ? AND status = <expected>` (a concurrent change
 * makes it match nothing: ReleaseStatusError 409), a release_status_history row in the same transaction,
 * then a live notification to the artist page's owner linking to member-release-profile.
 */
export class ReleaseStatusError extends Error {
  constructor(
    message: string,
    readonly status = 409,
    readonly problems: ReleasePreflightProblem[] = [],
  ) {
    super(message);
    this.name = "ReleaseStatusError";
  }
}

type ReleaseRef = Pick<ReleaseDetail, "id" | "title" | "status"> & { artist: { ownerId: number } };

interface Transition {
  from: ReleaseStatus;
  to: ReleaseStatus;
  set?: Partial<typeof releases.$inferInsert>;
  reason?: string | null;
  notify: { message: string; color: NotificationColor };
}

async function transition(release: ReleaseRef, actorId: number | null, t: Transition): Promise<Release> {
  const updated = await db().transaction(async (tx) => {
    const [row] = await tx
      .update(releases)
      .set({ ...t.set, status: t.to, updatedAt: new Date() })
      .where(and(eq(releases.id, release.id), eq(releases.status, t.from)))
      .returning();
    if (!row) return null;
    await tx.insert(releaseStatusHistory).values({ releaseId: release.id, fromStatus: t.from, toStatus: t.to, actorId, reason: t.reason ?? null });
    return row;
  });
  if (!updated) throw new ReleaseStatusError("The release's status changed in the meantime. Reload the page and try again.");
  await notifyMember(release.artist.ownerId, {
    type: "ReleaseStatusChanged",
    message: t.notify.message,
    color: t.notify.color,
    routeName: "member-release-profile",
    resourceId: release.id,
  });
  return updated;
}

function requireStatus(release: ReleaseRef, allowed: readonly ReleaseStatus[], action: string) {
  if (!allowed.includes(release.status)) {
    throw new ReleaseStatusError(`A release that is ${RELEASE_STATUS_LABELS[release.status].toLowerCase()} cannot be ${action}.`);
  }
}

function requireAdmin(actor: Actor) {
  if (!isAdminAccount(actor)) throw new ReleaseStatusError("Only an administrator can do this.", 403);
}

/**
 * Submits a draft or rejected release for review. Runs the preflight first (refused with its blocking
 * problems), then assigns a UPC and the tracks' missing ISRCs from the platform's ranges.
 */
export async function submitRelease(release: ReleaseDetail, actor: Actor, where: PreflightArea, today = todayUtc()): Promise<Release> {
  requireStatus(release, ["draft", "rejected"], "submitted");
  const problems = await releasePreflight(release, where, today);
  const blocking = blockingProblems(problems);
  if (blocking.length) {
    throw new ReleaseStatusError(
      `Fix ${blocking.length === 1 ? "this problem" : `these ${blocking.length} problems`} before submitting.`,
      400,
      blocking as ReleasePreflightProblem[],
    );
  }
  // Codes are handed out before the status changes: a number lost to a failed submission is harmless.
  for (const track of release.tracks) {
    if (track.isrc) continue;
    const isrc = await assignIsrc();
    await db()
      .update(songs)
      .set({ isrc, updatedAt: new Date() })
      .where(and(eq(songs.id, track.songId), isNull(songs.isrc)));
  }
  const upc = release.upc ?? (await assignUpc());
  return transition(release, actor.id, {
    from: release.status,
    to: "pending_approval",
    set: { upc, submittedAt: new Date(), rejectionReasons: null },
    notify: { message: `“${release.title}” was submitted for review.`, color: "blue" },
  });
}

/** Approves a release under review; then hands it to afterReleaseApproved (the delivery package). */
export async function approveRelease(release: ReleaseRef, actor: Actor): Promise<Release> {
  requireAdmin(actor);
  requireStatus(release, ["pending_approval"], "approved");
  const updated = await transition(release, actor.id, {
    from: "pending_approval",
    to: "approved",
    set: { reviewedAt: new Date(), reviewedBy: actor.id, rejectionReasons: null },
    notify: { message: `“${release.title}” was approved and is ready for distribution.`, color: "green" },
  });
  await afterReleaseApproved(release.id, actor.id);
  return updated;
}

/**
 * Called once after a release is approved (its status is already `approved`): builds the delivery package
 * (app/modules/catalog/delivery/). It never throws, so the approval stands whatever happens to the package.
 */
export async function afterReleaseApproved(releaseId: number, actorId: number): Promise<void> {
  await deliverOnApproval(releaseId, actorId);
}

/** Rejects a release under review with a reason per field (shown to the owner beside each field). */
export async function rejectRelease(release: ReleaseRef, actor: Actor, reasons: ReleaseRejectionReason[]): Promise<Release> {
  requireAdmin(actor);
  requireStatus(release, ["pending_approval"], "rejected");
  if (reasons.length === 0) throw new ReleaseStatusError("Give at least one reason.", 400);
  return transition(release, actor.id, {
    from: "pending_approval",
    to: "rejected",
    set: { reviewedAt: new Date(), reviewedBy: actor.id, rejectionReasons: reasons },
    reason: reasons
      .map((r) => `${r.field}: ${r.message}`)
      .join("\n")
      .slice(0, 4000),
    notify: { message: `“${release.title}” needs changes before it can be distributed: ${reasons[0]!.message}`.slice(0, 480), color: "red" },
  });
}

export async function startDistribution(release: ReleaseRef, actor: Actor): Promise<Release> {
  requireAdmin(actor);
  requireStatus(release, ["approved"], "sent to the stores");
  return transition(release, actor.id, {
    from: "approved",
    to: "in_distribution",
    notify: { message: `“${release.title}” is on its way to the stores.`, color: "green" },
  });
}

/** The owner (or a band editor) or an administrator asks for a release in distribution to be taken down. */
export async function requestTakedown(release: ReleaseRef, actor: Actor, rights: ReleaseRights | null, reason: string): Promise<Release> {
  if (!rights && !isAdminAccount(actor)) throw new ReleaseStatusError("You cannot change this release.", 403);
  requireStatus(release, ["approved", "in_distribution"], "taken down");
  return transition(release, actor.id, {
    from: release.status,
    to: "takedown_requested",
    reason,
    notify: { message: `A takedown of “${release.title}” was requested.`, color: "orange" },
  });
}

export async function markTakenDown(release: ReleaseRef, actor: Actor): Promise<Release> {
  requireAdmin(actor);
  requireStatus(release, ["takedown_requested"], "marked as taken down");
  return transition(release, actor.id, {
    from: "takedown_requested",
    to: "taken_down",
    notify: { message: `“${release.title}” was taken down from the stores.`, color: "gray" },
  });
}

/** Which actions a page offers, from the status and who is looking. */
export function availableActions(status: ReleaseStatus, admin: boolean) {
  return {
    edit: status === "draft" || status === "rejected",
    submit: status === "draft" || status === "rejected",
    approve: admin && status === "pending_approval",
    reject: admin && status === "pending_approval",
    startDistribution: admin && status === "approved",
    requestTakedown: status === "approved" || status === "in_distribution",
    markTakenDown: admin && status === "takedown_requested",
  };
}
