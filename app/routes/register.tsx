import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect, useActionData } from "react-router";
import { AuthCard, Field, FormAlert, Honeypot, SubmitButton, useClearOnError } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { EmailTakenError, registerMember, sendAlreadyRegisteredEmail } from "~/modules/accounts/accounts.server";
import { dashboardPath, getOptionalUser } from "~/modules/accounts/current-user.server";
import { RegisterSchema } from "~/modules/accounts/schemas";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { listPublishedDocuments, pendingDocumentsFor, signDocuments } from "~/modules/legal/legal.server";
import { isHoneypotFilled } from "~/modules/security/honeypot.server";
import { hitRateLimit } from "~/modules/security/rate-limit.server";
import type { Route } from "./+types/register";
import { NameFields, NewPasswordFields, TermsAgreementField } from "~/modules/accounts/account-fields";
import { requestInfoContext } from "~/request-context";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { bindReferral, readRefTouch } from "~/modules/affiliates/referrals.server";

export const handle = { routeName: "register" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Register");

export async function loader({ context }: Route.LoaderArgs) {
  const user = await getOptionalUser(context);
  if (user) throw redirect(dashboardPath(user));
  const documents = (await listPublishedDocuments()).filter((d) => d.required);
  return { documents };
}

const HIDDEN = ["password", "passwordConfirmation"];

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  const submission = parseForm(formData, { schema: RegisterSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: HIDDEN }), { status: 400 });
  if (isHoneypotFilled(formData)) {
    return data(submission.reply({ formErrors: ["We could not create this account."], hideFields: HIDDEN }), {
      status: 400,
    });
  }
  const limit = await hitRateLimit(`register:ip:${context.get(requestInfoContext).ip}`, 20, 60 * 60);
  if (!limit.allowed) {
    return data(submission.reply({ formErrors: ["Too many accounts were created from here. Please try again later."], hideFields: HIDDEN }), { status: 429 });
  }
  // The same answer whether or not the address has an account (no enumeration): the owner gets an email.
  const checkYourMail = () =>
    redirectWithFlash("/login", {
      kind: "success",
      message: `Almost there: we sent a message to ${submission.value.email}. Open it to continue.`,
    });
  try {
    // A referral (the first-touch cookie of an affiliate's link) is bound with the account, never afterwards (decision 025).
    const touch = await readRefTouch(request.headers.get("Cookie"));
    const user = await registerMember(submission.value, { onCreated: (tx, created) => bindReferral(tx, created.id, touch) });
    // Ticking the box agreed to the documents listed beside it: record it so the first login needs no second step.
    const pending = await pendingDocumentsFor(user.id);
    await signDocuments({
      userId: user.id,
      documentIds: pending.map((d) => d.id),
      ip: context.get(requestInfoContext).ip,
      userAgent: request.headers.get("user-agent") ?? "",
    });
    return checkYourMail();
  } catch (error) {
    if (!(error instanceof EmailTakenError)) throw error;
    await sendAlreadyRegisteredEmail(submission.value.email);
    return checkYourMail();
  }
}

export default function RegisterRoute({ loaderData }: Route.ComponentProps) {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "register",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  useClearOnError(form.id, lastResult, ["password", "passwordConfirmation"]);
  const documents = loaderData.documents;
  return (
    <AuthCard
      title="Create your account"
      intro={
        <>
          Already have one?{" "}
          <Link to="/login" className="font-semibold text-brand-800 underline">
            Log in
          </Link>
        </>
      }
    >
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        <Honeypot />
        <NameFields name={fields.name} lastName={fields.lastName} />
        <Field
          label="Email"
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
          errors={fields.email.errors}
          errorId={fields.email.errorId}
        />
        <NewPasswordFields password={fields.password} confirmation={fields.passwordConfirmation} fresh={false} />
        <TermsAgreementField field={fields.terms} documents={documents} />
        <SubmitButton pendingLabel="Creating your account…">Create account</SubmitButton>
      </Form>
    </AuthCard>
  );
}
