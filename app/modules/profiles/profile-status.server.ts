import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { db } from "~/db/client.server";
import { profileRates, profileReferenceValues, profiles, referenceValues, type Profile, type ProfileStatus, type User } from "~/db/schema";
import { fullName } from "~/modules/accounts/current-user.server";
import { isAdminAccount } from "~/modules/accounts/roles";
import { notifyAdmins, notifyMember } from "~/modules/notifications/notifications.server";
import { profileRights } from "./profile-access.server";
import { profileNoun, REASON_MAX, REASON_MIN } from "./profile-status-schema";
import { PROFILE_STATUS_LABELS, PROFILE_TYPE_INFO, profileRouteNames } from "./profile-types";

/**
 * The moderation workflow of every profile type (artist pages and the four provider profiles):
 *
 *   draft / rejected / unpublished --submit--> pending_approval --approve--> published --unpublish--> unpublished
 *                     pending_approval --withdraw--> draft,   pending_approval --reject--> rejected
 *
 * Each transition is a single conditional UPDATE (`WHERE status IN <allowed>`), so two administrators
 * deciding at the same moment cannot both win: the second finds the row already moved and is told why.
 * Notifications go out after the UPDATE has committed.
 */

/** A refused transition; `status` is the HTTP status the action answers with. */
export class ProfileStatusError extends Error {
  constructor(
    message: string,
    readonly status = 409,
  ) {
    super(message);
    this.name = "ProfileStatusError";
  }
}

/** Refused because the profile lacks what a published profile must show; `missing` lists each item. */
export class IncompleteProfileError extends ProfileStatusError {
  constructor(readonly missing: string[]) {
    super(`Complete the profile before submitting it. Still missing: ${missing.join("; ")}.`, 422);
    this.name = "IncompleteProfileError";
  }
}

export const MIN_BIO_LENGTH = 20;

/** Where each transition may start from. */
const FROM: Record<"submit" | "withdraw" | "approve" | "reject" | "unpublish", readonly ProfileStatus[]> = {
  submit: ["draft", "rejected", "unpublished"],
  withdraw: ["pending_approval"],
  approve: ["pending_approval"],
  reject: ["pending_approval"],
  unpublish: ["published"],
};
type Transition = keyof typeof FROM;

const NOUN = (profile: Pick<Profile, "type">) => profileNoun(profile.type);

/** Why a transition cannot start from `current`, in words for the person who clicked. */
function refusal(transition: Transition, current: ProfileStatus): string {
  const now = PROFILE_STATUS_LABELS[current].toLowerCase();
  if (transition === "submit") {
    return current === "pending_approval"
      ? "This profile is already waiting for approval."
      : "This profile is already published. Unpublish it first to submit changes for approval.";
  }
  if (transition === "unpublish") {
    return current === "unpublished" ? "This profile is already unpublished." : `Only a published profile can be unpublished; this one is ${now}.`;
  }
  if (current === "published" && transition === "approve") return "This profile is already published.";
  if (current === "rejected" && transition === "reject") return "This profile has already been rejected.";
  const verb = { withdraw: "withdrawn", approve: "approved", reject: "rejected" }[transition];
  return `Only a profile waiting for approval can be ${verb}; this one is ${now}.`;
}

/**
 * Runs the UPDATE only when the row is still in an allowed status (and meets `extra`); when nothing
 * was updated, re-reads the row to explain why. Returns the updated row.
 */
async function transition(
  profile: Pick<Profile, "id">,
  kind: Transition,
  set: PgUpdateSetSource<typeof profiles>,
  extra?: SQL,
): Promise<Profile | { current: Profile | undefined }> {
  const [row] = await db()
    .update(profiles)
    .set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(profiles.id, profile.id), inArray(profiles.status, [...FROM[kind]]), extra))
    .returning();
  if (row) return row;
  const [current] = await db().select().from(profiles).where(eq(profiles.id, profile.id)).limit(1);
  return { current };
}

function explain(kind: Transition, outcome: { current: Profile | undefined }): never {
  if (!outcome.current) throw new ProfileStatusError("This profile no longer exists.", 404);
  throw new ProfileStatusError(refusal(kind, outcome.current.status));
}

const isRow = (value: Profile | { current: Profile | undefined }): value is Profile => "status" in value;

async function requireOwnerOrEditor(actor: User, profile: Profile, doing: string) {
  const rights = await profileRights(actor, profile);
  if (rights !== "owner" && rights !== "editor") {
    throw new ProfileStatusError(`Only the profile's owner${profile.type === "artist" ? " or a band member with editing rights" : ""} can ${doing}.`, 403);
  }
  return rights;
}

function requireAdmin(actor: User, doing: string) {
  if (!isAdminAccount(actor)) throw new ProfileStatusError(`Only an administrator can ${doing}.`, 403);
}

function checkReason(reason: string | undefined, required: boolean): string | null {
  const value = reason?.trim() ?? "";
  if (!value) {
    if (required) throw new ProfileStatusError("Give the reason for the rejection.", 400);
    return null;
  }
  if (value.length < REASON_MIN) throw new ProfileStatusError(`The reason needs at least ${REASON_MIN} characters.`, 400);
  if (value.length > REASON_MAX) throw new ProfileStatusError(`The reason can have at most ${REASON_MAX} characters.`, 400);
  return value;
}

/* ------------------------------------------------------------------ completeness */

/** SQL conditions a profile must meet to be submitted, each with its words for the member. */
function completenessRules(profile: Pick<Profile, "id" | "type">): Array<{ missing: string; holds: SQL }> {
  const rules = [
    {
      missing: `a bio of at least ${MIN_BIO_LENGTH} characters`,
      holds: sql`char_length(btrim(${profiles.bio})) >= ${MIN_BIO_LENGTH}`,
    },
    {
      missing: "at least one genre",
      holds: sql`exists (select 1 from ${profileReferenceValues} inner join ${referenceValues} on ${referenceValues.id} = ${profileReferenceValues.valueId} where ${profileReferenceValues.profileId} = ${profiles.id} and ${referenceValues.kind} = 'genre')`,
    },
  ];
  if (PROFILE_TYPE_INFO[profile.type].provider) {
    rules.push({
      missing: "at least one rate",
      holds: sql`exists (select 1 from ${profileRates} where ${profileRates.profileId} = ${profiles.id})`,
    });
  }
  return rules;
}

/** What the profile still lacks before it can be submitted (empty when complete); one query. */
export async function missingForSubmission(profile: Pick<Profile, "id" | "type">): Promise<string[]> {
  const rules = completenessRules(profile);
  const [row] = await db()
    .select(Object.fromEntries(rules.map((rule, i) => [`r${i}`, sql<boolean>`(${rule.holds})`])))
    .from(profiles)
    .where(eq(profiles.id, profile.id))
    .limit(1);
  if (!row) return [];
  return rules.filter((_, i) => !row[`r${i}`]).map((rule) => rule.missing);
}

/* ------------------------------------------------------------------ transitions */

/** Owner or band editor: asks for publication. Refuses an incomplete profile, listing what is missing. */
export async function submitForApproval(actor: User, profile: Profile): Promise<Profile> {
  await requireOwnerOrEditor(actor, profile, "submit it for approval");
  const rules = completenessRules(profile);
  // The completeness rules are part of the UPDATE, so a rate removed meanwhile cannot slip through.
  const outcome = await transition(
    profile,
    "submit",
    { status: "pending_approval", submittedAt: sql`now()`, rejectionReason: null },
    and(...rules.map((rule) => rule.holds)),
  );
  if (!isRow(outcome)) {
    const current = outcome.current;
    if (current && FROM.submit.includes(current.status)) {
      const missing = await missingForSubmission(current);
      if (missing.length) throw new IncompleteProfileError(missing);
    }
    explain("submit", outcome);
  }
  const names = profileRouteNames(outcome.type);
  await notifyAdmins({
    type: "ProfileSubmitted",
    message: `${fullName(actor)} submitted the ${NOUN(outcome)} "${outcome.name}" for approval`,
    color: "blue",
    routeName: names.adminOwnerPage,
    resourceId: outcome.id,
  });
  return outcome;
}

/** Owner or band editor: takes a pending submission back to draft. */
export async function withdrawSubmission(actor: User, profile: Profile): Promise<Profile> {
  await requireOwnerOrEditor(actor, profile, "withdraw its submission");
  const outcome = await transition(profile, "withdraw", { status: "draft", submittedAt: null });
  if (!isRow(outcome)) explain("withdraw", outcome);
  return outcome;
}

/** Owner, band editor or administrator: takes a published profile off the directory. */
export async function unpublishProfile(actor: User, profile: Profile, reason?: string): Promise<Profile> {
  const rights = await profileRights(actor, profile);
  if (!rights) throw new ProfileStatusError("Only the profile's owner or an administrator can unpublish it.", 403);
  // Only a moderator's reason is kept (shown to the owner on their page); the owner needs none.
  const byModerator = rights === "admin";
  const note = byModerator ? checkReason(reason, false) : null;
  const outcome = await transition(profile, "unpublish", {
    status: "unpublished",
    rejectionReason: note,
    ...(byModerator ? { reviewedAt: sql`now()`, reviewedBy: actor.id } : {}),
  });
  if (!isRow(outcome)) explain("unpublish", outcome);
  if (byModerator) {
    const base = `An administrator unpublished your ${NOUN(outcome)} "${outcome.name}".`;
    await notifyMember(outcome.ownerId, {
      type: "ProfileUnpublished",
      message: note ? withReason(`${base} Reason: `, note) : base,
      color: "orange",
      routeName: profileRouteNames(outcome.type).memberOwnerPage,
      resourceId: outcome.id,
    });
  }
  return outcome;
}

/** Administrator: publishes a pending profile and tells its owner. */
export async function approveProfile(admin: User, profile: Profile): Promise<Profile> {
  requireAdmin(admin, "approve a profile");
  const outcome = await transition(profile, "approve", {
    status: "published",
    publishedAt: sql`now()`,
    reviewedAt: sql`now()`,
    reviewedBy: admin.id,
    rejectionReason: null,
  });
  if (!isRow(outcome)) explain("approve", outcome);
  await notifyMember(outcome.ownerId, {
    type: "ProfileApproved",
    message: `Your ${NOUN(outcome)} "${outcome.name}" is approved and published.`,
    color: "green",
    routeName: profileRouteNames(outcome.type).memberOwnerPage,
    resourceId: outcome.id,
  });
  return outcome;
}

/** Administrator: sends a pending profile back with a reason (5 to 500 characters), and tells its owner. */
export async function rejectProfile(admin: User, profile: Profile, reason: string): Promise<Profile> {
  requireAdmin(admin, "reject a profile");
  const note = checkReason(reason, true)!;
  const outcome = await transition(profile, "reject", {
    status: "rejected",
    rejectionReason: note,
    reviewedAt: sql`now()`,
    reviewedBy: admin.id,
  });
  if (!isRow(outcome)) explain("reject", outcome);
  await notifyMember(outcome.ownerId, {
    type: "ProfileRejected",
    message: withReason(`Your ${NOUN(outcome)} "${outcome.name}" was not approved. Reason: `, note),
    color: "red",
    routeName: profileRouteNames(outcome.type).memberOwnerPage,
    resourceId: outcome.id,
  });
  return outcome;
}

/** Notification messages hold 500 characters; a long reason is shortened visibly (the page shows it whole). */
function withReason(prefix: string, reason: string): string {
  const room = 500 - prefix.length;
  return prefix + (reason.length <= room ? reason : `${reason.slice(0, room - 1)}…`);
}
