import { z } from "zod";
import { emailField } from "~/modules/accounts/schemas";

/** The band forms of an artist's owner page (band-section.tsx) and their intents (band-actions.server.ts). */
export const BAND_INTENTS = ["band-invite", "band-revoke", "band-remove", "band-rights", "band-leave"] as const;
export type BandIntent = (typeof BAND_INTENTS)[number];

const memberId = z.coerce.number({ error: "Choose a band member." }).int().positive("Choose a band member.").max(2_147_483_647);

export const BandInviteSchema = z.object({
  intent: z.literal("band-invite"),
  email: z.string({ error: "Enter the email address to invite." }).trim().min(1, "Enter the email address to invite.").pipe(emailField),
  canEdit: z.boolean().optional(),
});

export const BandRevokeSchema = z.object({
  intent: z.literal("band-revoke"),
  inviteId: z.string({ error: "Choose an invitation." }).min(1, "Choose an invitation.").max(64),
});

export const BandMemberSchema = z.object({
  intent: z.literal("band-remove"),
  userId: memberId,
});

export const BandRightsSchema = z.object({
  intent: z.literal("band-rights"),
  userId: memberId,
  canEdit: z.enum(["true", "false"], { error: "Choose whether this member may edit the page." }),
});

export const BandLeaveSchema = z.object({ intent: z.literal("band-leave") });
