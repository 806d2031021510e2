import { z } from "zod";
import { IMAGE_MAX_BYTES, IMAGE_MESSAGES, isAcceptedImageType } from "~/modules/images/image-rules";
import { emailField, nameField, newPasswordField } from "./schemas";

/**
 * The account page's forms (/member/{id}/profile), shared by the browser and the server. The page posts
 * each with an `intent` that says which one it is.
 */
export const NamesSchema = z.object({
  name: nameField("first name"),
  lastName: nameField("last name"),
  email: emailField,
});

export const PasswordSchema = z
  .object({
    currentPassword: z.string({ error: "Enter your current password." }).min(1, "Enter your current password.").max(128),
    password: newPasswordField,
    passwordConfirmation: z.string({ error: "Repeat the new password." }),
  })
  .refine((v) => v.password === v.passwordConfirmation, {
    path: ["passwordConfirmation"],
    message: "The two passwords do not match.",
  });

/** The browser checks size and declared type before sending; the server decodes the file (images.server.ts). */
export const AvatarSchema = z.object({
  avatar: z
    .custom<File>((v) => typeof File !== "undefined" && v instanceof File && v.size > 0, IMAGE_MESSAGES.missing)
    .refine((file) => file.size <= IMAGE_MAX_BYTES, IMAGE_MESSAGES.tooLarge)
    .refine((file) => isAcceptedImageType(file.type), IMAGE_MESSAGES.unreadable),
});
