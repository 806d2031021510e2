import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { Field, FormAlert, SubmitButton } from "~/components/forms";

/**
 * The Account page's two-factor section (decision 019): set up (the secret as text, as an
 * otpauth link and as a QR code), confirm with a first code, then recovery codes (shown once), regenerate
 * them, or turn two-factor off with the password or a code. Plain forms: all of it works without JavaScript.
 */
export interface TwoFactorView {
  enabled: boolean;
  recoveryCodesLeft: number;
  enrolment: { secret: string; uri: string; qrSvg: string } | null;
}

const secondaryButton =
  "inline-flex items-center justify-center rounded-md border border-stone-300 bg-white px-4 py-2 text-sm font-semibold text-stone-800 shadow-sm hover:bg-stone-50 disabled:opacity-60";
const primaryButton =
  "inline-flex items-center justify-center rounded-md bg-brand-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60";

export function TwoFactorSection({
  view,
  lastResult,
  recoveryCodes,
}: {
  view: TwoFactorView;
  lastResult: SubmissionResult<string[]> | undefined;
  recoveryCodes: string[] | null;
}) {
  return (
    <div className="space-y-5">
      {recoveryCodes ? <RecoveryCodes codes={recoveryCodes} /> : null}
      {view.enabled ? (
        <Enabled recoveryCodesLeft={view.recoveryCodesLeft} lastResult={lastResult} />
      ) : view.enrolment ? (
        <Enrolling enrolment={view.enrolment} lastResult={lastResult} />
      ) : (
        <div className="space-y-3">
          <p className="text-sm text-stone-700" data-testid="two-factor-status">
            Two-factor authentication is <strong>off</strong>. Turn it on to ask for a code from an authenticator app (such as 1Password, Google Authenticator
            or Aegis) each time you log in.
          </p>
          <Form method="post">
            <SubmitButton name="intent" value="tfa-start" pendingLabel="Preparing…" className={primaryButton}>
              Set up two-factor authentication
            </SubmitButton>
          </Form>
        </div>
      )}
    </div>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div role="status" tabIndex={-1} className="rounded-md border border-green-200 bg-green-50 p-4 text-sm text-green-950">
      <p className="font-semibold">Your recovery codes</p>
      <p className="mt-1">Keep them somewhere safe, apart from your phone. Each works once, instead of a code from the app. They are shown only now.</p>
      <ul data-testid="recovery-codes" className="mt-3 grid grid-cols-2 gap-x-6 gap-y-1 font-mono">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </div>
  );
}

function Enrolling({ enrolment, lastResult }: { enrolment: NonNullable<TwoFactorView["enrolment"]>; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({ id: "two-factor-confirm", lastResult, shouldValidate: "onSubmit" });
  return (
    <div className="space-y-4">
      <ol className="list-decimal space-y-3 pl-5 text-sm text-stone-700">
        <li>
          Scan this QR code with your authenticator app, or enter the key by hand.
          <div className="mt-2 flex flex-col gap-4 sm:flex-row sm:items-start">
            <div
              className="size-40 shrink-0 rounded border border-stone-200 bg-white [&>svg]:size-full"
              role="img"
              aria-label="QR code of the key"
              dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }}
            />
            <dl className="min-w-0 space-y-2">
              <dt className="font-medium text-stone-800">Key</dt>
              <dd>
                <code data-testid="totp-secret" className="rounded bg-stone-100 px-1.5 py-0.5 font-mono break-all">
                  {enrolment.secret}
                </code>
              </dd>
              <dt className="font-medium text-stone-800">Setup link</dt>
              <dd>
                <a href={enrolment.uri} data-testid="totp-uri" className="font-mono text-xs break-all text-brand-800 underline">
                  {enrolment.uri}
                </a>
              </dd>
            </dl>
          </div>
        </li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        <Field
          label="Code from the app"
          inputProps={{
            ...getInputProps(fields.code, { type: "text" }),
            autoComplete: "one-time-code",
            inputMode: "numeric",
            spellCheck: false,
            maxLength: 40,
          }}
          errors={fields.code.errors}
          errorId={fields.code.errorId}
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <SubmitButton name="intent" value="tfa-cancel" pendingLabel="Canceling…" className={secondaryButton}>
            Cancel setup
          </SubmitButton>
          <SubmitButton name="intent" value="tfa-confirm" pendingLabel="Checking…" className={primaryButton}>
            Turn on two-factor authentication
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}

function Enabled({ recoveryCodesLeft, lastResult }: { recoveryCodesLeft: number; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({ id: "two-factor-disable", lastResult, shouldValidate: "onSubmit" });
  return (
    <div className="space-y-5">
      <p className="text-sm text-stone-700" data-testid="two-factor-status">
        Two-factor authentication is <strong>on</strong>. {recoveryCodesLeft} of 10 recovery codes left.
      </p>
      <Form method="post" className="flex flex-wrap items-center gap-3">
        <SubmitButton name="intent" value="tfa-recovery" pendingLabel="Generating…" className={secondaryButton}>
          Generate new recovery codes
        </SubmitButton>
        <span className="text-xs text-stone-500">The old ones stop working.</span>
      </Form>
      <Form method="post" className="space-y-3 border-t border-stone-200 pt-4" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        <Field
          label="Password or authentication code"
          help="To turn two-factor authentication off."
          inputProps={{ ...getInputProps(fields.code, { type: "password" }), autoComplete: "current-password", maxLength: 128 }}
          errors={fields.code.errors}
          errorId={fields.code.errorId}
        />
        <div className="flex justify-end">
          <SubmitButton name="intent" value="tfa-disable" pendingLabel="Turning off…" className={secondaryButton}>
            Turn off two-factor authentication
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}
