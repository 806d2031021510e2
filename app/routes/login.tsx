import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { data, Form, Link, redirect, useActionData } from "react-router";
import { AuthCard, Field, FormAlert, SubmitButton, useClearOnError } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { attemptLogin } from "~/modules/accounts/accounts.server";
import { dashboardPath, getOptionalUser, afterLoginTarget } from "~/modules/accounts/current-user.server";
import { AgreeSchema, LoginSchema } from "~/modules/accounts/schemas";
import { startUserSession } from "~/modules/accounts/session.server";
import { sessionUserOf } from "~/modules/accounts/session-user.server";
import { pendingDocumentsFor, signDocuments } from "~/modules/legal/legal.server";
import type { Route } from "./+types/login";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { requestInfoContext } from "~/request-context";

export const handle = { routeName: "login" };

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageTitle(matches, loaderData?.mode === "agree" ? "Legal agreements" : "Login");

export async function loader({ request, context }: Route.LoaderArgs) {
  const redirectTo = new URL(request.url).searchParams.get("redirect") ?? "";
  const { user, agreedToAllDocuments } = sessionUserOf(context);
  if (!user) return { mode: "login" as const, redirectTo, documents: [] };
  // Spec section 5, rule 2: a user who has not agreed to every required document is kept here.
  if (agreedToAllDocuments) throw redirect(afterLoginTarget(redirectTo, dashboardPath(user)));
  const documents = await pendingDocumentsFor(user.id);
  // Agreed in another tab since the session was read.
  if (!documents.length) throw redirect(afterLoginTarget(redirectTo, dashboardPath(user)));
  return { mode: "agree" as const, redirectTo, documents };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  if (formData.get("intent") === "agree") return agree(request, context, formData);

  const submission = parseForm(formData, { schema: LoginSchema });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  }
  const outcome = await attemptLogin({ ...submission.value, ip: context.get(requestInfoContext).ip });
  if (!outcome.ok) {
    return data(submission.reply({ formErrors: [outcome.message], hideFields: ["password"] }), {
      status: outcome.status,
    });
  }
  const pending = await pendingDocumentsFor(outcome.user.id);
  const target = afterLoginTarget(submission.value.redirect, dashboardPath(outcome.user));
  const redirectTo = pending.length ? `/login?${new URLSearchParams({ redirect: target })}` : target;
  return startUserSession(request, { userId: outcome.user.id, ip: context.get(requestInfoContext).ip, redirectTo });
}

async function agree(request: Request, context: Route.ActionArgs["context"], formData: FormData) {
  const { ip } = context.get(requestInfoContext);
  const user = await getOptionalUser(context);
  if (!user) throw redirect("/login");
  const submission = parseForm(formData, { schema: AgreeSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { remaining } = await signDocuments({
    userId: user.id,
    documentIds: submission.value.documentId,
    ip,
    userAgent: request.headers.get("user-agent") ?? "",
  });
  if (remaining.length) {
    return data(submission.reply({ formErrors: ["Agree to every document listed to continue."] }), { status: 400 });
  }
  throw redirect(afterLoginTarget(submission.value.redirect, dashboardPath(user)));
}

export default function LoginRoute({ loaderData }: Route.ComponentProps) {
  return loaderData.mode === "agree" ? (
    <AgreeToDocuments documents={loaderData.documents} redirectTo={loaderData.redirectTo} />
  ) : (
    <LoginForm redirectTo={loaderData.redirectTo} />
  );
}

function LoginForm({ redirectTo }: { redirectTo: string }) {
  const lastResult = useActionData<typeof action>();
  // Validated on the server only (parseForm in the action), which answers with the same messages beside
  // the fields: the page people open first ships no schema library (issue 15's page weight).
  const [form, fields] = useForm({ id: "login", lastResult });
  useClearOnError(form.id, lastResult, ["password"]);
  return (
    <AuthCard
      title="Log in"
      intro={
        <>
          New here?{" "}
          <Link to="/register" className="font-semibold text-brand-800 underline">
            Create an account
          </Link>
        </>
      }
    >
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <input type="hidden" name="redirect" value={redirectTo} />
        <FormAlert id={form.errorId} errors={form.errors} />
        <Field
          label="Email"
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", autoFocus: true }}
          errors={fields.email.errors}
          errorId={fields.email.errorId}
        />
        <Field
          label="Password"
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }}
          errors={fields.password.errors}
          errorId={fields.password.errorId}
        />
        <div className="flex justify-end text-sm">
          <Link to="/forgot-password" className="font-medium text-brand-800 underline">
            Forgot your password?
          </Link>
        </div>
        <SubmitButton pendingLabel="Logging in…">Log in</SubmitButton>
      </Form>
    </AuthCard>
  );
}

function AgreeToDocuments({
  documents,
  redirectTo,
}: {
  documents: Array<{ id: number; name: string; slug: string; version: number }>;
  redirectTo: string;
}) {
  const lastResult = useActionData<typeof action>();
  const [form] = useForm({ id: "agree", lastResult });
  return (
    <AuthCard
      title="Before you continue"
      intro="Please read and agree to the following documents. They have been published or updated since you last agreed."
    >
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        <ul className="divide-y divide-stone-200 rounded-md border border-stone-200">
          {documents.map((doc) => (
            <li key={doc.id} className="flex items-center justify-between gap-3 px-3 py-2.5">
              <span className="font-medium">{doc.name}</span>
              <Link
                to={`/legal-terms/${doc.slug}`}
                target="_blank"
                rel="noopener"
                className="text-sm font-medium text-brand-800 underline"
              >
                Read<span className="sr-only"> {doc.name}</span>
              </Link>
              <input type="hidden" name="documentId" value={doc.id} />
            </li>
          ))}
        </ul>
        <input type="hidden" name="redirect" value={redirectTo} />
        <SubmitButton name="intent" value="agree" pendingLabel="Saving…">
          I agree
        </SubmitButton>
      </Form>
      <Form method="post" action="/logout" className="mt-3 text-center">
        <button type="submit" className="text-sm text-stone-600 underline">
          Log out instead
        </button>
      </Form>
    </AuthCard>
  );
}
