import { z } from "zod";

/** Form schemas shared by the pages and the JSON API. Messages are shown beside their fields. */
export const emailField = z
  .string({ error: "Enter your email address." })
  .trim()
  .min(1, "Enter your email address.")
  .max(254, "That email address is too long.")
  .pipe(z.email("Enter a valid email address, like name@example.com."));

export const newPasswordField = z.string({ error: "Choose a password." }).min(8, "Use at least 8 characters.").max(128, "Use at most 128 characters.");

export const nameField = (label: string) =>
  z
    .string({ error: `Enter your ${label}.` })
    .trim()
    .min(1, `Enter your ${label}.`)
    .max(80, `Your ${label} can be at most 80 characters.`);

export const LoginSchema = z.object({
  email: emailField,
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password.").max(128),
  redirect: z.string().optional(),
});

/** An authenticator code (6 digits) or a recovery code (xxxxx-xxxxx): the login's second step and the two-factor forms. */
export const OneTimeCodeSchema = z.object({
  code: z.string({ error: "Enter the code from your authenticator app." }).max(40, "Enter the 6-digit code from your authenticator app, or a recovery code."),
});

interface PasswordPair {
  password: string;
  passwordConfirmation: string;
}
const matches = (v: PasswordPair) => v.password === v.passwordConfirmation;

function withConfirmation<T extends z.ZodRawShape>(shape: T) {
  return z
    .object({ ...shape, password: newPasswordField, passwordConfirmation: z.string({ error: "Repeat the password." }) })
    .refine((v) => matches(v as unknown as PasswordPair), {
      path: ["passwordConfirmation"],
      message: "The two passwords do not match.",
      // zod skips refinements while any field fails; check the pair as soon as both are typed.
      when: ({ value }) => {
        const pair = value as Partial<PasswordPair> | undefined;
        return typeof pair?.password === "string" && typeof pair?.passwordConfirmation === "string";
      },
    });
}

export const RegisterSchema = withConfirmation({
  name: nameField("first name"),
  lastName: nameField("last name"),
  email: emailField,
  terms: z.literal("on", { error: "Agree to the Terms of Service and Privacy Policy to continue." }),
});

export const ForgotPasswordSchema = z.object({ email: emailField });

export const ResetPasswordSchema = withConfirmation({});

export const AgreeSchema = z.object({
  documentId: z.array(z.coerce.number().int().positive()).min(1, "Agree to every document listed to continue."),
  redirect: z.string().optional(),
});
