import { z } from "zod";
import { emailField } from "~/modules/accounts/schemas";
import { notificationColors } from "./colors";

export const AnnouncementSchema = z
  .object({
    audience: z.enum(["all", "one"], { error: "Choose who receives it." }),
    email: z.string().trim().optional(),
    message: z.string({ error: "Write the announcement." }).trim().min(1, "Write the announcement.").max(500, "Keep it under 500 characters."),
    color: z.enum(notificationColors).default("blue"),
  })
  .superRefine((value, ctx) => {
    if (value.audience === "one" && !emailField.safeParse(value.email ?? "").success) {
      ctx.addIssue({ code: "custom", path: ["email"], message: "Enter the member's email address." });
    }
  });
