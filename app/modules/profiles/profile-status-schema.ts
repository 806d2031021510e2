import { z } from "zod";
import type { ProfileType } from "~/db/schema";
import { PROFILE_TYPE_INFO } from "./profile-types";

/**
 * The moderation forms' fields, shared by the status panel (Conform's client validation) and the
 * server. The service checks the same limits again (it is also called from outside the forms).
 */
export const STATUS_INTENTS = ["submit", "withdraw", "unpublish", "approve", "reject"] as const;
export type StatusIntent = (typeof STATUS_INTENTS)[number];
export const ADMIN_ONLY_INTENTS: readonly StatusIntent[] = ["approve", "reject"];

export const REASON_MIN = 5;
export const REASON_MAX = 500;

export const isStatusIntent = (value: string): value is StatusIntent => (STATUS_INTENTS as readonly string[]).includes(value);

const reasonText = z
  .string()
  .trim()
  .min(REASON_MIN, `The reason needs at least ${REASON_MIN} characters.`)
  .max(REASON_MAX, `The reason can have at most ${REASON_MAX} characters.`);

/** Reject: the owner reads the reason, so it is required. */
export const RejectSchema = z.object({
  intent: z.literal("reject"),
  reason: z.string({ error: "Give the reason for the rejection." }).pipe(reasonText),
});

/** Unpublish: a reason is optional (an administrator may explain; the owner needs none). */
export const UnpublishSchema = z.object({
  intent: z.literal("unpublish"),
  reason: reasonText.optional(),
});

/** The buttons without a field (submit, withdraw, approve). */
export const PlainStatusSchema = z.object({
  intent: z.enum(["submit", "withdraw", "approve"]),
});

export function statusSchemaFor(intent: StatusIntent) {
  if (intent === "reject") return RejectSchema;
  if (intent === "unpublish") return UnpublishSchema;
  return PlainStatusSchema;
}

/** How messages name a profile: "musician profile", "audio engineer profile", but "artist page". */
export function profileNoun(type: ProfileType): string {
  const info = PROFILE_TYPE_INFO[type];
  return info.provider ? `${info.label.toLowerCase()} profile` : "artist page";
}
