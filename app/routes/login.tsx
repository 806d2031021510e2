import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { data, Form, Link, redirect, useActionData } from "react-router";
import { AuthCard, Field, FormAlert, SubmitButton, useClearOnError } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { findUserById } from "~/modules/accounts/accounts.server";
import { authenticatePassword } from "~/modules/accounts/authenticator.server";
import { dashboardPath, getOptionalUser, afterLoginTarget } from "~/modules/accounts/current-user.server";
import { AgreeSchema, OneTimeCodeSchema } from "~/modules/accounts/schemas";
import { attemptSecondFactor, clearSecondStepHeader, readSecondStep, secondStepHeader } from "~/modules/accounts/step-up.server";
import { hasTwoFactor } from "~/modules/accounts/two-factor.server";
import type { User } from "~/db/schema";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { startUserSession } from "~/modules/accounts/session.server";
import { knownDevice, rememberDevice } from "~/modules/accounts/device-cookie.server";
import { sessionUserOf } from "~/modules/accounts/session-user.server";
import { pendingDocumentsFor, signDocuments } from "~/modules/legal/legal.server";
import { pendingDocumentsWithChanges, type PendingDocument } from "~/modules/legal/documents/agreement-changes.server";
import { DocumentChanges } from "~/modules/legal/documents/document-changes-view";
import type { Route } from "./+types/login";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { requestInfoContext } from "~/request-context";

export const handle = { routeName: "login" };

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageTitle(matches, loaderData?.mode === "agree" ? "Legal agreements" : loaderData?.mode === "code" ? "Two-factor authentication" : "Login");

export async function loader({ request, context }: Route.LoaderArgs) {
  const redirectTo = new URL(request.url).searchParams.get("redirect") ?? "";
  const { user, agreedToAllDocuments } = sessionUserOf(context);
  if (!user) {
    // Two-factor accounts: the password was right, the code is asked next (no session until then).
    const pending = await readSecondStep(request);
    if (pending) return { mode: "code" as const, redirectTo: pending.redirect, documents: [] };
    return { mode: "login" as const, redirectTo, documents: [] };
  }
  // A user who has not agreed to every required document is kept here.
  if (agreedToAllDocuments) throw redirect(afterLoginTarget(redirectTo, dashboardPath(user)));
  // Each with what changed since the version this user agreed to, when there was one.
  const documents = await pendingDocumentsWithChanges(user.id);
  // Agreed in another tab since the session was read.
  if (!documents.length) throw redirect(afterLoginTarget(redirectTo, dashboardPath(user)));
  return { mode: "agree" as const, redirectTo, documents };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  if (formData.get("intent") === "agree") return agree(request, context, formData);
  if (formData.get("intent") === "code") return secondStep(request, context, formData);
  if (formData.get("intent") === "cancel-code") {
    throw redirect("/login", { headers: { "Set-Cookie": await clearSecondStepHeader() } });
  }

  const login = await authenticatePassword(request, formData, context.get(requestInfoContext).ip);
  if (!login.ok) return data(login.reply, { status: login.status });
  if (await hasTwoFactor(login.user.id)) {
    throw redirect("/login", { headers: { "Set-Cookie": await secondStepHeader(login.user.id, login.redirect ?? "") } });
  }
  return logInUser(request, context, login.user, login.redirect);
}

async function logInUser(request: Request, context: Route.ActionArgs["context"], user: User, redirectValue: string | undefined) {
  const pending = await pendingDocumentsFor(user.id);
  const target = afterLoginTarget(redirectValue, dashboardPath(user));
  const redirectTo = pending.length ? `/login?${new URLSearchParams({ redirect: target })}` : target;
  const response = await startUserSession(request, { userId: user.id, ip: context.get(requestInfoContext).ip, redirectTo });
  // This browser is now known to the account: its right password is never refused by the account's windows.
  response.headers.append("Set-Cookie", await rememberDevice(request, user.id));
  return response;
}

/** The second step for a two-factor account: a TOTP or recovery code, rate-limited like the password step. */
async function secondStep(request: Request, context: Route.ActionArgs["context"], formData: FormData) {
  const pending = await readSecondStep(request);
  if (!pending) {
    throw redirectWithFlash("/login", { kind: "info", message: "That took too long. Please log in again." });
  }
  const submission = parseForm(formData, { schema: OneTimeCodeSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["code"] }), { status: 400 });
  const outcome = await attemptSecondFactor({
    userId: pending.userId,
    code: submission.value.code,
    ip: context.get(requestInfoContext).ip,
    device: await knownDevice(request, pending.userId),
  });
  if (!outcome.ok) {
    return data(submission.reply({ fieldErrors: { code: [outcome.message] }, hideFields: ["code"] }), { status: outcome.status });
  }
  const user = await findUserById(pending.userId);
  if (!user || !user.activatedAt || user.suspendedAt) throw redirect("/login", { headers: { "Set-Cookie": await clearSecondStepHeader() } });
  const response = await logInUser(request, context, user, pending.redirect);
  response.headers.append("Set-Cookie", await clearSecondStepHeader());
  return response;
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
  if (loaderData.mode === "code") return <SecondStepForm />;
  return loaderData.mode === "agree" ? (
    <AgreeToDocuments documents={loaderData.documents} redirectTo={loaderData.redirectTo} />
  ) : (
    <LoginForm redirectTo={loaderData.redirectTo} />
  );
}

function LoginForm({ redirectTo }: { redirectTo: string }) {
  const lastResult = useActionData<typeof action>();
  // Validated on the server only (parseForm in the action), which answers with the same messages beside
  // the fields: the page people open first ships no schema library (page weight).
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

function SecondStepForm() {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({ id: "login-code", lastResult });
  useClearOnError(form.id, lastResult, ["code"]);
  return (
    <AuthCard
      title="Two-factor authentication"
      intro="Enter the 6-digit code from your authenticator app. Lost your phone? Enter one of your recovery codes instead."
    >
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        <Field
          label="Authentication code"
          inputProps={{ ...getInputProps(fields.code, { type: "text" }), autoComplete: "one-time-code", spellCheck: false, autoFocus: true, maxLength: 40 }}
          errors={fields.code.errors}
          errorId={fields.code.errorId}
          help="6 digits, or a recovery code such as abcde-fghjk."
        />
        <SubmitButton name="intent" value="code" pendingLabel="Checking…">
          Verify and log in
        </SubmitButton>
      </Form>
      <Form method="post" className="mt-3 text-center">
        <button type="submit" name="intent" value="cancel-code" className="text-sm text-stone-600 underline">
          Cancel and start again
        </button>
      </Form>
    </AuthCard>
  );
}

function AgreeToDocuments({ documents, redirectTo }: { documents: PendingDocument[]; redirectTo: string }) {
  const lastResult = useActionData<typeof action>();
  const [form] = useForm({ id: "agree", lastResult });
  return (
    <AuthCard title="Before you continue" intro="Please read and agree to the following documents. They have been published or updated since you last agreed.">
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        <ul className="divide-y divide-stone-200 rounded-md border border-stone-200">
          {documents.map((doc) => (
            <li key={doc.id} className="px-3 py-2.5">
              <div className="flex items-center justify-between gap-3">
                <span className="font-medium">{doc.name}</span>
                <Link to={`/legal-terms/${doc.slug}`} target="_blank" rel="noopener" className="text-sm font-medium text-brand-800 underline">
                  Read<span className="sr-only"> {doc.name}</span>
                </Link>
              </div>
              {doc.changes ? <DocumentChanges name={doc.name} changes={doc.changes} /> : null}
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
