import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState, type ReactNode } from "react";
import { data, Form } from "react-router";
import { Avatar } from "~/components/avatar";
import { Field, FormAlert, SubmitButton, useClearOnError } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { EmailTakenError } from "~/modules/accounts/accounts.server";
import { notFound, requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { AvatarSchema, NamesSchema, PasswordSchema } from "~/modules/accounts/profile-schemas";
import {
  cancelEmailChange,
  changePassword,
  changesLoginEmail,
  loadAccountDetails,
  ProfileError,
  removeAvatar,
  updateAvatar,
  updateNamesAndEmail,
} from "~/modules/accounts/profile.server";
import { getSession } from "~/modules/accounts/session.server";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { IMAGE_MESSAGES } from "~/modules/images/image-rules";
import { ImageUploadError, isOversizedUpload } from "~/modules/images/images.server";
import type { Route } from "./+types/member.$memberId.profile";
import { NameFields, NewPasswordFields } from "~/modules/accounts/account-fields";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { routeError } from "~/modules/http/route-errors.server";
import { z } from "zod";
import type { User } from "~/db/schema";
import { OneTimeCodeSchema } from "~/modules/accounts/schemas";
import { confirmPasswordOrCode, requireFreshConfirmation } from "~/modules/accounts/step-up.server";
import { knownDevice } from "~/modules/accounts/device-cookie.server";
import {
  confirmEnrolment,
  disableTwoFactor,
  pendingEnrolment,
  regenerateRecoveryCodes,
  sendTwoFactorNotice,
  startEnrolment,
  twoFactorState,
  TwoFactorError,
} from "~/modules/accounts/two-factor.server";
import { TwoFactorSection, type TwoFactorView } from "~/modules/accounts/two-factor-section";
import { requestInfoContext } from "~/request-context";
import { signaturesOfMember } from "~/modules/legal/signatures/signatures.server";
import { OwnSignatures } from "~/modules/legal/signatures/own-signatures";

export const handle = { routeName: "member-profile" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Account");

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, memberId } = await requireMemberAreaAccess(request, context, params.memberId);
  const account = await loadAccountDetails(memberId);
  if (!account) throw notFound();
  const isOwnAccount = user.id === memberId;
  // Two-factor is the owner's alone: an administrator visiting sees nothing of it, never the secret.
  let twoFactor: TwoFactorView | null = null;
  if (isOwnAccount) {
    const state = await twoFactorState(user.id);
    twoFactor = { enabled: state.enabled, recoveryCodesLeft: state.recoveryCodesLeft, enrolment: state.enrolling ? await pendingEnrolment(user) : null };
  }
  // The legal documents this member agreed to, version by version.
  const agreements = await signaturesOfMember(memberId);
  return { account, isOwnAccount, twoFactor, agreements };
}

const DisableTwoFactorSchema = z.object({
  code: z.string({ error: "Enter your password or a code from your authenticator app." }).max(128),
});

const PASSWORD_FIELDS = ["currentPassword", "password", "passwordConfirmation"];

type FormName = "names" | "password" | "avatar" | "two-factor";
const reply = (form: FormName, result: SubmissionResult<string[]>, status = 400, recoveryCodes: string[] | null = null) =>
  data({ form, result, recoveryCodes }, { status });

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, memberId } = await requireMemberAreaAccess(request, context, params.memberId);
  const here = new URL(request.url).pathname;

  // Refuse an oversized body before reading any of it (only the avatar form sends files).
  if (isOversizedUpload(request)) {
    return reply("avatar", avatarError(IMAGE_MESSAGES.tooLarge), 413);
  }

  const formData = await readForm(request);
  const intent = formData.get("intent");
  if (typeof intent === "string" && intent.startsWith("tfa-"))
    return twoFactorAction(request, user, memberId, intent, formData, context.get(requestInfoContext).ip);
  switch (intent) {
    case "names": {
      const submission = parseForm(formData, { schema: NamesSchema });
      if (submission.status !== "success") return reply("names", submission.reply());
      // The login email leads to the password reset: changing it is a takeover's first step (decision 020).
      if (await changesLoginEmail(memberId, submission.value.email))
        await requireFreshConfirmation(request, user, formData, context.get(requestInfoContext).ip);
      try {
        const { pendingEmail } = await updateNamesAndEmail(memberId, submission.value);
        return redirectWithFlash(here, {
          kind: "success",
          message: pendingEmail
            ? `Saved. We sent a confirmation link to ${pendingEmail}: the email address changes once it is opened.`
            : "Your changes are saved.",
        });
      } catch (error) {
        if (error instanceof EmailTakenError || error instanceof ProfileError) {
          const field = error instanceof ProfileError ? error.field : "email";
          const status = error instanceof ProfileError ? error.status : 400;
          return reply("names", submission.reply({ fieldErrors: { [field]: [error.message] } }), status);
        }
        throw error;
      }
    }

    case "cancel-email-change": {
      await cancelEmailChange(memberId);
      return redirectWithFlash(here, { kind: "info", message: "The email change is cancelled; its link no longer works." });
    }

    case "password": {
      const submission = parseForm(formData, { schema: PasswordSchema });
      if (user.id !== memberId) {
        return reply("password", submission.reply({ formErrors: ["Only the account's owner can change its password."], hideFields: PASSWORD_FIELDS }), 403);
      }
      if (submission.status !== "success") return reply("password", submission.reply({ hideFields: PASSWORD_FIELDS }));
      try {
        const session = await getSession(request);
        await changePassword(user.id, submission.value, session.id);
      } catch (error) {
        if (error instanceof ProfileError) {
          return reply("password", submission.reply({ fieldErrors: { [error.field]: [error.message] }, hideFields: PASSWORD_FIELDS }), error.status);
        }
        throw error;
      }
      return redirectWithFlash(here, {
        kind: "success",
        message: "Your password is changed. Every other session of your account has been signed out.",
      });
    }

    case "avatar": {
      const submission = parseForm(formData, { schema: AvatarSchema });
      if (submission.status !== "success") return reply("avatar", submission.reply());
      try {
        await updateAvatar(memberId, submission.value.avatar);
      } catch (error) {
        if (error instanceof ImageUploadError) {
          return reply("avatar", submission.reply({ fieldErrors: { avatar: [error.message] } }));
        }
        throw error;
      }
      return redirectWithFlash(here, { kind: "success", message: "The avatar is updated." });
    }

    case "remove-avatar": {
      await removeAvatar(memberId);
      return redirectWithFlash(here, { kind: "success", message: "The avatar is removed." });
    }

    default:
      throw routeError(400, "Unknown form.");
  }
}

/** The two-factor section's forms (decision 020): the owner only. */
async function twoFactorAction(request: Request, user: User, memberId: number, intent: string, formData: FormData, ip: string) {
  const here = `${new URL(request.url).pathname}#two-factor`;
  if (user.id !== memberId) throw routeError(403, "Only the account's owner can change its two-factor authentication.");
  try {
    switch (intent) {
      case "tfa-start":
        // Turning two-factor on is an account takeover's best move (the owner is locked out): the fresh confirmation first.
        await requireFreshConfirmation(request, user, formData, ip);
        await startEnrolment(user.id);
        return redirectWithFlash(here, { kind: "info", message: "Scan the QR code or enter the key in your authenticator app, then enter the code it shows." });
      case "tfa-cancel":
        if ((await twoFactorState(user.id)).enabled) throw routeError(409, "Two-factor authentication is on: turn it off with your password or a code.");
        await disableTwoFactor(user.id);
        return redirectWithFlash(here, { kind: "info", message: "Two-factor setup is canceled." });
      case "tfa-confirm": {
        const submission = parseForm(formData, { schema: OneTimeCodeSchema });
        if (submission.status !== "success") return reply("two-factor", submission.reply({ hideFields: ["code"] }));
        // Still within the confirmation that started it; the code proves the app, not who is typing, so it confirms nothing.
        await requireFreshConfirmation(request, user, formData, ip);
        try {
          const codes = await confirmEnrolment(user.id, submission.value.code);
          await sendTwoFactorNotice(user, "on");
          return reply("two-factor", submission.reply({ resetForm: true }), 200, codes);
        } catch (error) {
          if (error instanceof TwoFactorError) return reply("two-factor", submission.reply({ fieldErrors: { code: [error.message] }, hideFields: ["code"] }));
          throw error;
        }
      }
      case "tfa-recovery": {
        // New recovery codes are as good as the authenticator: the same fresh confirmation as payout changes.
        await requireFreshConfirmation(request, user, formData, ip);
        const codes = await regenerateRecoveryCodes(user.id);
        await sendTwoFactorNotice(user, "recovery-codes");
        return reply("two-factor", parseForm(new FormData(), { schema: OneTimeCodeSchema }).reply({ resetForm: true }), 200, codes);
      }
      case "tfa-disable": {
        const submission = parseForm(formData, { schema: DisableTwoFactorSchema });
        if (submission.status !== "success") return reply("two-factor", submission.reply({ hideFields: ["code"] }));
        const outcome = await confirmPasswordOrCode(user, submission.value.code, { ip, device: await knownDevice(request, user.id) });
        if (!outcome.ok) return reply("two-factor", submission.reply({ fieldErrors: { code: [outcome.message] }, hideFields: ["code"] }), outcome.status);
        await disableTwoFactor(user.id);
        await sendTwoFactorNotice(user, "off");
        return redirectWithFlash(here, { kind: "success", message: "Two-factor authentication is off. Your recovery codes no longer work." });
      }
      default:
        throw routeError(400, "Unknown form.");
    }
  } catch (error) {
    if (error instanceof TwoFactorError) throw routeError(409, error.message);
    throw error;
  }
}

/** A reply for the avatar form when the body was not read at all. */
function avatarError(message: string) {
  return parseForm(new FormData(), { schema: AvatarSchema }).reply({ fieldErrors: { avatar: [message] } });
}

export default function ProfileRoute({ loaderData, actionData }: Route.ComponentProps) {
  const { account, isOwnAccount } = loaderData;
  const resultFor = (form: FormName) => (actionData?.form === form ? actionData.result : undefined);
  const fullname = `${account.name} ${account.lastName}`.trim();
  return (
    <div className="mx-auto w-full max-w-4xl">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Account</h1>
        <p className="mt-1 text-sm text-stone-600">
          {isOwnAccount ? "Your picture, names, email address and password." : `The picture, names and email address of ${fullname}.`}
        </p>
      </header>
      <div className="mt-6 space-y-6">
        <Section
          id="avatar"
          title="Avatar"
          description="Shown beside your name across the product. We crop it to a square; use an image of at least 64x64 pixels."
        >
          <AvatarForm key={account.version} name={fullname} src={account.avatarImg} lastResult={resultFor("avatar")} />
        </Section>
        <Section
          id="names"
          title="Names and email"
          description="A new email address must be confirmed: we send a link to it, and the account keeps its current address until the link is opened."
        >
          <NamesForm key={account.version} account={account} lastResult={resultFor("names")} />
        </Section>
        {loaderData.twoFactor ? (
          <Section
            id="two-factor"
            title="Two-factor authentication"
            description="A code from an app on your phone, asked at each login after your password. Administrators need it to pay or reject payouts."
          >
            <TwoFactorSection
              key={account.version}
              view={loaderData.twoFactor}
              lastResult={resultFor("two-factor")}
              recoveryCodes={actionData?.form === "two-factor" ? actionData.recoveryCodes : null}
            />
          </Section>
        ) : null}
        <Section
          id="agreements"
          title="Legal agreements"
          description={
            isOwnAccount
              ? "The documents you agreed to, and when: each new version of a required document is agreed to again."
              : `The documents ${fullname} agreed to, and when.`
          }
        >
          <OwnSignatures rows={loaderData.agreements} />
        </Section>
        <Section id="password" title="Password" description="Changing it signs out every other session of your account.">
          {isOwnAccount ? (
            <PasswordForm key={account.version} lastResult={resultFor("password")} />
          ) : (
            <p className="text-sm text-stone-600">
              Only {fullname} can change this password. They can choose a new one with “Forgot your password?” on the login page.
            </p>
          )}
        </Section>
      </div>
    </div>
  );
}

function Section({ id, title, description, children }: { id: string; title: string; description: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-xl border border-stone-200 bg-white shadow-sm">
      <div className="grid gap-6 p-5 sm:p-6 md:grid-cols-3">
        <div>
          <h2 id={`${id}-heading`} className="text-base font-semibold">
            {title}
          </h2>
          <p className="mt-1 text-sm text-stone-600">{description}</p>
        </div>
        <div className="md:col-span-2">{children}</div>
      </div>
    </section>
  );
}

function Actions({ children }: { children: ReactNode }) {
  return <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-end sm:[&>*]:w-auto">{children}</div>;
}

function NamesForm({
  account,
  lastResult,
}: {
  account: { name: string; lastName: string; email: string; pendingEmail: string | null };
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useForm({
    id: "profile-names",
    lastResult,
    defaultValue: { name: account.name, lastName: account.lastName, email: account.email },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NamesSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-4">
      {account.pendingEmail ? (
        <div role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-900">
          <p>
            <span className="font-semibold">Email change pending.</span> We sent a confirmation link to{" "}
            <span className="font-medium break-all">{account.pendingEmail}</span>. Until it is opened, the account keeps using{" "}
            <span className="font-medium break-all">{account.email}</span>.
          </p>
          <Form method="post" className="mt-2">
            <button
              type="submit"
              name="intent"
              value="cancel-email-change"
              className="rounded text-sm font-medium text-amber-900 underline hover:text-amber-950 focus-visible:ring-2 focus-visible:ring-amber-600 focus-visible:outline-none"
            >
              Cancel the change
            </button>
          </Form>
        </div>
      ) : null}
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="names" />
        <FormAlert id={form.errorId} errors={form.errors} />
        <NameFields name={fields.name} lastName={fields.lastName} />
        <Field
          label="Email"
          help="Changing it sends a confirmation link to the new address."
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
          errors={fields.email.errors}
          errorId={fields.email.errorId}
        />
        <Actions>
          <SubmitButton name="intent" value="names" pendingLabel="Saving…">
            Save names and email
          </SubmitButton>
        </Actions>
      </Form>
    </div>
  );
}

function PasswordForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({
    id: "profile-password",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PasswordSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  useClearOnError(form.id, lastResult, ["currentPassword", "password", "passwordConfirmation"]);
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="password" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <Field
        label="Current password"
        inputProps={{ ...getInputProps(fields.currentPassword, { type: "password" }), autoComplete: "current-password" }}
        errors={fields.currentPassword.errors}
        errorId={fields.currentPassword.errorId}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <NewPasswordFields password={fields.password} confirmation={fields.passwordConfirmation} />
      </div>
      <Actions>
        <SubmitButton name="intent" value="password" pendingLabel="Changing…">
          Change password
        </SubmitButton>
      </Actions>
    </Form>
  );
}

function AvatarForm({ name, src, lastResult }: { name: string; src: string | null; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({
    id: "profile-avatar",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AvatarSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  // With JavaScript, a chosen file is previewed before it is sent.
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  return (
    <div className="flex flex-col gap-5 sm:flex-row sm:items-start">
      <div className="shrink-0 self-center sm:self-start">
        <Avatar name={name} src={preview ?? src} size={96} />
      </div>
      <div className="min-w-0 flex-1 space-y-4">
        <Form method="post" encType="multipart/form-data" className="space-y-4" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="avatar" />
          <FormAlert id={form.errorId} errors={form.errors} />
          <Field
            label={src ? "New avatar image" : "Avatar image"}
            help="JPEG, PNG, WebP or GIF, up to 5 MB."
            inputProps={{
              ...getInputProps(fields.avatar, { type: "file" }),
              accept: "image/*",
              onChange: (event) => {
                const file = event.currentTarget.files?.[0];
                setPreview(null);
                if (!file || !file.type.startsWith("image/")) return;
                // Only a file the browser can display is previewed (the server still decides).
                const url = URL.createObjectURL(file);
                const probe = new Image();
                probe.onload = () => setPreview(url);
                probe.onerror = () => URL.revokeObjectURL(url);
                probe.src = url;
              },
            }}
            errors={fields.avatar.errors}
            errorId={fields.avatar.errorId}
          />
          <Actions>
            <SubmitButton name="intent" value="avatar" pendingLabel="Uploading…">
              Upload avatar
            </SubmitButton>
          </Actions>
        </Form>
        {src ? (
          <Form method="post" className="flex justify-end border-t border-stone-100 pt-4">
            <button
              type="submit"
              name="intent"
              value="remove-avatar"
              className="rounded-md px-3 py-2 text-sm font-medium text-red-700 hover:bg-red-50 focus-visible:ring-2 focus-visible:ring-red-600 focus-visible:outline-none"
            >
              Remove avatar
            </button>
          </Form>
        ) : null}
      </div>
    </div>
  );
}
