import type { SubmissionResult } from "@conform-to/react";
import { data, type UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router";
import type { Profile, User } from "~/db/schema";
import { notFound } from "~/modules/accounts/guards.server";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import type { ProfileRights } from "~/modules/profiles/profile-access.server";
import { BAND_INTENTS, BandInviteSchema, BandLeaveSchema, BandMemberSchema, BandRevokeSchema, BandRightsSchema, type BandIntent } from "./band-invite-schemas";
import { BandError, inviteBandMember, leaveBand, removeBandMember, revokeInvite, setMemberRights } from "./band.server";
import { parseForm } from "~/modules/security/form-body.server";

export type BandActionResult = DataWithResponseInit<{ form: "band"; result: SubmissionResult<string[]> }>;

const reply = (result: SubmissionResult<string[]>, status: number): BandActionResult => data({ form: "band" as const, result }, { status });

const isBandIntent = (intent: string): intent is BandIntent => (BAND_INTENTS as readonly string[]).includes(intent);

/**
 * The band forms of an artist's owner page. Returns null when `intent` is not a band intent (or the
 * profile is not an artist), so the page's action can go on with its own intents. The caller has already
 * checked that the actor may open the page; each service checks the finer rules again.
 */
export async function handleBandIntent(input: {
  intent: string;
  formData: FormData;
  actor: User;
  profile: Profile;
  /** The actor's rights on the page (none for a plain band member leaving); each service checks its own rule. */
  rights: ProfileRights | null;
  redirectTo: string;
}): Promise<Response | BandActionResult | null> {
  const { formData, actor, profile, redirectTo } = input;
  if (!isBandIntent(input.intent) || profile.type !== "artist") return null;
  const intent: BandIntent = input.intent;

  const schema = {
    "band-invite": BandInviteSchema,
    "band-revoke": BandRevokeSchema,
    "band-remove": BandMemberSchema,
    "band-rights": BandRightsSchema,
    "band-leave": BandLeaveSchema,
  }[intent];
  const submission = parseForm(formData, { schema });
  if (submission.status !== "success") return reply(submission.reply(), 400);
  const value = submission.value as Record<string, unknown>;

  try {
    const message = await perform();
    // Someone who left may not open the page any more: they go to their dashboard.
    const target = intent === "band-leave" ? `/member/${actor.id}/dashboard` : redirectTo;
    return redirectWithFlash(target, { kind: "success", message });
  } catch (error) {
    if (!(error instanceof BandError)) throw error;
    if (error.status === 404) throw notFound();
    const result = error.field ? submission.reply({ fieldErrors: { [error.field]: [error.message] } }) : submission.reply({ formErrors: [error.message] });
    return reply(result, error.status);
  }

  async function perform(): Promise<string> {
    switch (intent) {
      case "band-invite": {
        const { invite } = await inviteBandMember(actor, profile, { email: value.email as string, canEdit: value.canEdit === true });
        return `We emailed an invitation to join ${profile.name} to ${invite.email}.`;
      }
      case "band-revoke": {
        const invite = await revokeInvite(actor, profile, value.inviteId as string);
        return `The invitation to ${invite.email} is revoked.`;
      }
      case "band-remove": {
        const { name } = await removeBandMember(actor, profile, value.userId as number);
        return `${name} is no longer a member of ${profile.name}.`;
      }
      case "band-rights": {
        const canEdit = value.canEdit === "true";
        const { name } = await setMemberRights(actor, profile, value.userId as number, canEdit);
        return canEdit ? `${name} may now edit the artist page.` : `${name} may no longer edit the artist page.`;
      }
      case "band-leave": {
        await leaveBand(actor, profile);
        return `You left ${profile.name}.`;
      }
    }
  }
}
