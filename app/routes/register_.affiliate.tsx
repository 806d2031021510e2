import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useActionData } from "react-router";
import { AuthCard, Field, FormAlert, Honeypot, SubmitButton, useClearOnError } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { NameFields, NewPasswordFields, TermsAgreementField } from "~/modules/accounts/account-fields";
import { ApplicationFields, ApplicationTermsNote, type ApplicationTerms } from "~/modules/affiliates/affiliate-pages";
import { registerAffiliateAction, registerAffiliateLoader } from "~/modules/affiliates/affiliate-routes.server";
import { AffiliateApplicationSchema, AffiliateSignUpSchema } from "~/modules/affiliates/schemas";
import type { Route } from "./+types/register_.affiliate";

export const handle = { routeName: "register-affiliate" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Become an Affiliate");

export const loader = (args: Route.LoaderArgs) => registerAffiliateLoader(args);

export const action = (args: Route.ActionArgs) => registerAffiliateAction(args);

const INTRO =
  "Bring musicians to Backline: for 12 months after each one signs up, you earn a share of the platform commission on their royalties, paid with your other income.";

function MemberApplication({ name, terms }: { name: string; terms: ApplicationTerms }) {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "affiliate-application",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AffiliateApplicationSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <AuthCard
      title="Become an affiliate"
      intro={
        <>
          {`${name}, you apply with your own account. `}
          {INTRO}
        </>
      }
    >
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        <ApplicationTermsNote terms={terms} />
        <ApplicationFields fields={fields as never} stripe={terms.stripe} />
        <SubmitButton pendingLabel="Sending your application…">Apply</SubmitButton>
      </Form>
    </AuthCard>
  );
}

function VisitorSignUp({ documents, terms }: { documents: Route.ComponentProps["loaderData"]["documents"]; terms: ApplicationTerms }) {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "affiliate-sign-up",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AffiliateSignUpSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  useClearOnError(form.id, lastResult, ["password", "passwordConfirmation"]);
  return (
    <AuthCard
      title="Become an affiliate"
      intro={
        <>
          {INTRO} Already a member?{" "}
          <Link to="/login?redirect=%2Fregister%2Faffiliate" className="font-semibold text-brand-800 underline">
            Log in
          </Link>{" "}
          to apply with your account.
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
        <ApplicationTermsNote terms={terms} />
        <ApplicationFields fields={fields as never} stripe={terms.stripe} />
        <TermsAgreementField field={fields.terms} documents={documents} />
        <SubmitButton pendingLabel="Creating your account…">Create account and apply</SubmitButton>
      </Form>
    </AuthCard>
  );
}

export default function RegisterAffiliateRoute({ loaderData }: Route.ComponentProps) {
  if (loaderData.mode === "admin") {
    return (
      <AuthCard title="Become an affiliate" intro={INTRO}>
        <p className="text-sm text-stone-700">Administrators cannot apply as affiliates. Log in with a member account to apply.</p>
      </AuthCard>
    );
  }
  if (loaderData.mode === "member") return <MemberApplication name={loaderData.name} terms={loaderData.terms} />;
  return <VisitorSignUp documents={loaderData.documents} terms={loaderData.terms} />;
}
