import type { SubmissionResult } from "@conform-to/react";
import { data, type UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router";
import type { ProfileType, User } from "~/db/schema";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { createProfile, ProfileEditError } from "./profile-editor.server";
import { CreateProfileSchema } from "./profile-schemas";
import { PROFILE_TYPE_INFO, profilePaths } from "./profile-types";
import { parseForm } from "~/modules/security/form-body.server";

export type CreateProfileReply = DataWithResponseInit<{ form: "create-profile"; result: SubmissionResult<string[]> }>;

/**
 * The "create-profile" intent of a member directory page: validates name and username, creates the draft
 * profile for `memberId` and redirects to its owner page (`/member/{memberId}/{memberPage}/{id}`).
 * The caller has already run requireMemberAreaAccess; createProfile checks the actor again.
 */
export async function handleCreateProfile(input: {
  formData: FormData;
  actor: User;
  memberId: number;
  type: ProfileType;
}): Promise<Response | CreateProfileReply> {
  const { formData, actor, memberId, type } = input;
  const submission = parseForm(formData, { schema: CreateProfileSchema });
  if (submission.status !== "success") return data({ form: "create-profile" as const, result: submission.reply() }, { status: 400 });
  try {
    const profile = await createProfile(actor, memberId, type, submission.value);
    const label = PROFILE_TYPE_INFO[type].provider ? `Your ${PROFILE_TYPE_INFO[type].label.toLowerCase()} profile` : `The artist page ${profile.name}`;
    return redirectWithFlash(profilePaths(type, "member", memberId).ownerPage(profile.id), {
      kind: "success",
      message: `${label} is created as a draft. Add the details, then ask for it to be published.`,
    });
  } catch (error) {
    if (error instanceof ProfileEditError) {
      return data(
        { form: "create-profile" as const, result: submission.reply({ formErrors: error.errors.form, fieldErrors: error.errors.fields }) },
        { status: error.status },
      );
    }
    throw error;
  }
}
