import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, useActionData } from "react-router";
import { AuthCard, Field, FormAlert, SubmitButton } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { requestPasswordReset } from "~/modules/accounts/accounts.server";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { ForgotPasswordSchema } from "~/modules/accounts/schemas";
import type { Route } from "./+types/forgot-password";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { requestInfoContext } from "~/request-context";

export const handle = { routeName: "forgot-password" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Forgot password");

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseForm(await readForm(request), { schema: ForgotPasswordSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  // The same answer whether or not the address has an account.
  await requestPasswordReset(submission.value.email, context.get(requestInfoContext).ip);
  return redirectWithFlash("/forgot-password", {
    kind: "success",
    message: `If an account exists for ${submission.value.email}, a reset link is on its way. It works once, for 60 minutes.`,
  });
}

export default function ForgotPasswordRoute() {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ForgotPasswordSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <AuthCard title="Forgot your password?" intro="Enter the email address of your account and we will send you a link to choose a new password.">
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        <Field
          label="Email"
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
          errors={fields.email.errors}
          errorId={fields.email.errorId}
        />
        <SubmitButton pendingLabel="Sending…">Send reset link</SubmitButton>
      </Form>
      <p className="mt-4 text-center text-sm">
        <Link to="/login" className="font-medium text-brand-800 underline">
          Back to login
        </Link>
      </p>
    </AuthCard>
  );
}
