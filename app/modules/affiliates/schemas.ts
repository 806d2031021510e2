import { z } from "zod";
import { emailField, nameField, newPasswordField } from "~/modules/accounts/schemas";

/** The affiliate forms: messages are shown beside their fields. */

export const PAYOUT_METHOD_OPTIONS = [
  { value: "manual", label: "Bank transfer (paid by hand)" },
  { value: "stripe", label: "Stripe" },
] as const;

const audienceField = z
  .string({ error: "Describe your website or audience." })
  .trim()
  .min(10, "Describe your website or audience in at least 10 characters.")
  .max(2000, "Keep the description to 2000 characters at most.");

const payoutMethodField = z.enum(["manual", "stripe"], { error: "Choose how you want to be paid." });

/** A logged-in member applying with their own account. */
export const AffiliateApplicationSchema = z.object({ audience: audienceField, payoutMethod: payoutMethodField });

/** A new visitor: the account (as /register) and the application together. */
export const AffiliateSignUpSchema = z
  .object({
    name: nameField("first name"),
    lastName: nameField("last name"),
    email: emailField,
    password: newPasswordField,
    passwordConfirmation: z.string({ error: "Repeat the password." }),
    terms: z.literal("on", { error: "Agree to the Terms of Service and Privacy Policy to continue." }),
    audience: audienceField,
    payoutMethod: payoutMethodField,
  })
  .refine((v) => v.password === v.passwordConfirmation, {
    path: ["passwordConfirmation"],
    message: "The two passwords do not match.",
    when: ({ value }) => {
      const pair = value as { password?: unknown; passwordConfirmation?: unknown } | undefined;
      return typeof pair?.password === "string" && typeof pair?.passwordConfirmation === "string";
    },
  });

const REASON = "Give a reason (3 to 500 characters).";

export const AdminAffiliateActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve") }),
  z.object({ intent: z.literal("reject"), reason: z.string({ error: REASON }).trim().min(3, REASON).max(500, REASON) }),
  z.object({ intent: z.literal("suspend"), reason: z.string({ error: REASON }).trim().min(3, REASON).max(500, REASON) }),
  z.object({
    intent: z.literal("rate"),
    commissionBps: z.coerce
      .number({ error: "Enter the rate in basis points, a whole number from 0 to 10000." })
      .int("Enter the rate in basis points, a whole number from 0 to 10000.")
      .min(0, "Enter the rate in basis points, a whole number from 0 to 10000.")
      .max(10_000, "Enter the rate in basis points, a whole number from 0 to 10000."),
  }),
]);
