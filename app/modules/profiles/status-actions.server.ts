import type { SubmissionResult } from "@conform-to/react";
import { data, type UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router";
import type { Profile, User } from "~/db/schema";
import { isAdminAccount } from "~/modules/accounts/roles";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import type { ProfileRights } from "./profile-access.server";
import { approveProfile, ProfileStatusError, rejectProfile, submitForApproval, unpublishProfile, withdrawSubmission } from "./profile-status.server";
import { ADMIN_ONLY_INTENTS, isStatusIntent, profileNoun, statusSchemaFor } from "./profile-status-schema";
import { parseForm } from "~/modules/security/form-body.server";

export type StatusActionResult = DataWithResponseInit<{ form: "status"; result: SubmissionResult<string[]> }>;

const reply = (result: SubmissionResult<string[]>, status: number): StatusActionResult => data({ form: "status" as const, result }, { status });

/**
 * The status panel's forms (submit, withdraw, unpublish, approve, reject), for the single-profile pages
 * of both areas: their action calls this first and goes on with its own intents when it returns null.
 * The page's guard has already checked that `actor` may open the profile; the service checks the rest.
 */
export async function handleStatusIntent(input: {
  intent: string;
  formData: FormData;
  actor: User;
  profile: Profile;
  rights: ProfileRights;
  redirectTo: string;
}): Promise<Response | StatusActionResult | null> {
  const { intent, formData, actor, profile, redirectTo } = input;
  if (!isStatusIntent(intent)) return null;
  const submission = parseForm(formData, { schema: statusSchemaFor(intent) });
  if (ADMIN_ONLY_INTENTS.includes(intent) && !isAdminAccount(actor)) {
    return reply(submission.reply({ formErrors: ["Only an administrator can approve or reject a profile."] }), 403);
  }
  if (submission.status !== "success") return reply(submission.reply(), 400);
  const value = submission.value as { reason?: string };
  const noun = profileNoun(profile.type);
  try {
    switch (intent) {
      case "submit":
        await submitForApproval(actor, profile);
        return await redirectWithFlash(redirectTo, {
          kind: "success",
          message: `Your ${noun} was submitted for approval. You will be notified of the decision.`,
        });
      case "withdraw":
        await withdrawSubmission(actor, profile);
        return await redirectWithFlash(redirectTo, { kind: "success", message: "The submission was withdrawn; the profile is a draft again." });
      case "unpublish":
        await unpublishProfile(actor, profile, value.reason);
        return await redirectWithFlash(redirectTo, {
          kind: "success",
          message:
            input.rights === "admin"
              ? `"${profile.name}" is unpublished. The owner was notified.`
              : "The profile is unpublished; it no longer appears in the directory.",
        });
      case "approve":
        await approveProfile(actor, profile);
        return await redirectWithFlash(redirectTo, { kind: "success", message: `"${profile.name}" is approved and published. The owner was notified.` });
      case "reject":
        await rejectProfile(actor, profile, value.reason ?? "");
        return await redirectWithFlash(redirectTo, { kind: "success", message: `"${profile.name}" was rejected. The owner was notified with your reason.` });
    }
  } catch (error) {
    if (error instanceof ProfileStatusError) return reply(submission.reply({ formErrors: [error.message] }), error.status);
    throw error;
  }
}
