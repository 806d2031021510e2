import { useId } from "react";
import { Form, useLocation } from "react-router";
import { Field, SubmitButton } from "./forms";

/** The thrown 403's payload from requireFreshConfirmation (app/modules/accounts/step-up.server.ts). */
export interface ConfirmPayload {
  fields: Array<[string, string]>;
  twoFactor: boolean;
  /** "money-decision": an administrator's money decision, which takes a current authenticator code only. */
  purpose?: "account" | "money-decision";
  error: string | null;
}

export function confirmPayloadOf(value: unknown): ConfirmPayload | null {
  const confirm = (value as { confirm?: unknown } | null)?.confirm as ConfirmPayload | undefined;
  return confirm && Array.isArray(confirm.fields) ? confirm : null;
}

/**
 * Shown by the error page when an account or money-moving change needs a fresh confirmation (or an
 * administrator's money decision a current code): asks for the password or the authenticator code and posts it
 * to the same address with what was submitted, so the change goes on once it is right. A plain form: works
 * without JavaScript.
 */
export function ConfirmAccess({ confirm }: { confirm: ConfirmPayload }) {
  const location = useLocation();
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const name = confirm.twoFactor ? "confirmCode" : "confirmPassword";
  const moneyDecision = confirm.purpose === "money-decision";
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10">
      <div className="rounded-xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-semibold tracking-tight">Confirm it is you</h1>
        <p className="mt-2 text-sm text-stone-600">
          {moneyDecision ? (
            <>
              Paying, rejecting and other money decisions need a current code from your authenticator app. Enter the 6-digit code it shows now. You will not be
              asked again for 5 minutes.
            </>
          ) : (
            <>
              Changing how you log in, your email address or how you are paid, and requesting a payout, need a fresh confirmation.{" "}
              {confirm.twoFactor ? "Enter the code from your authenticator app (or a recovery code)." : "Enter your password."} You will not be asked again for
              10 minutes.
            </>
          )}
        </p>
        {/* reloadDocument: a document POST, as without JavaScript. The action threw this form, which left its route
            without loader data; a client-side submission that the action answers with a form error (400, no
            revalidation) would then render the page without it. */}
        <Form method="post" action={`${location.pathname}${location.search}`} reloadDocument className="mt-6 space-y-4">
          {confirm.fields.map(([field, value], index) => (
            <input key={`${field}-${index}`} type="hidden" name={field} value={value} />
          ))}
          <Field
            label={confirm.twoFactor ? "Authentication code" : "Password"}
            inputProps={{
              id: inputId,
              name,
              type: confirm.twoFactor ? "text" : "password",
              ...(moneyDecision ? { inputMode: "numeric" as const, maxLength: 10 } : {}),
              autoComplete: confirm.twoFactor ? "one-time-code" : "current-password",
              spellCheck: false,
              required: true,
              autoFocus: true,
            }}
            errors={confirm.error ? [confirm.error] : undefined}
            errorId={errorId}
          />
          <SubmitButton pendingLabel="Confirming…">Confirm and continue</SubmitButton>
        </Form>
      </div>
    </div>
  );
}
