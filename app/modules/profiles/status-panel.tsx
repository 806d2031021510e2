import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import { Form, useActionData, useRouteLoaderData } from "react-router";
import { DateTime } from "~/components/formatting";
import { FieldErrors, FormAlert, SubmitButton } from "~/components/forms";
import { StatusTag } from "~/components/status-tag";
import type { Profile, ProfileStatus } from "~/db/schema";
import { ACCT_TYPE } from "~/modules/accounts/roles";
import type { loader as memberLayoutLoader } from "~/routes/member.$memberId";
import type { ProfileRights } from "./profile-access.server";
import { profileNoun, REASON_MAX, RejectSchema, UnpublishSchema, type StatusIntent } from "./profile-status-schema";
import { PROFILE_STATUS_LABELS, PROFILE_TYPE_INFO } from "./profile-types";

type PanelProfile = Pick<Profile, "id" | "type" | "status" | "rejectionReason" | "submittedAt" | "reviewedAt" | "publishedAt">;
type Area = "member" | "admin";

/**
 * The status of a profile, what it means and what happens next, with the moderation buttons the viewer
 * may use: the owner (or a band editor) submits, withdraws or unpublishes; an administrator approves,
 * rejects with a reason, or unpublishes. Plain POST forms (`intent` = the button), handled by
 * handleStatusIntent in the page's action, so they work without JavaScript.
 */
export function ProfileStatusPanel({ profile, rights, area }: { profile: PanelProfile; rights: ProfileRights; area: Area }) {
  const actionData = useActionData() as { form?: string; result?: SubmissionResult<string[]> } | undefined;
  const memberLayout = useRouteLoaderData<typeof memberLayoutLoader>("routes/member.$memberId");
  const result = actionData?.form === "status" ? actionData.result : undefined;
  const resultIntent = result?.initialValue?.intent as StatusIntent | undefined;
  const resultFor = (intent: StatusIntent) => (resultIntent === intent ? result : undefined);

  const canEdit = rights === "owner" || rights === "editor";
  const isAdmin = area === "admin" || rights === "admin" || memberLayout?.loggedUser?.acct_type === ACCT_TYPE.admin;
  const status = profile.status;
  const noun = profileNoun(profile.type);
  const ownerView = canEdit && area === "member";

  const ownerActions = canEdit
    ? {
        submit: status === "draft" || status === "rejected" || status === "unpublished",
        withdraw: status === "pending_approval",
        // An administrator gets the unpublish form with a reason below instead.
        unpublish: status === "published" && !isAdmin,
      }
    : { submit: false, withdraw: false, unpublish: false };
  const adminActions = isAdmin ? { decide: status === "pending_approval", unpublish: status === "published" } : { decide: false, unpublish: false };
  const hasActions = Object.values(ownerActions).some(Boolean) || Object.values(adminActions).some(Boolean);

  return (
    <section aria-labelledby="profile-status-heading" className="space-y-4 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="profile-status-heading" className="text-lg font-semibold text-stone-900">
          Status
        </h2>
        <StatusTag status={status} label={PROFILE_STATUS_LABELS[status]} />
      </div>

      <StatusExplanation profile={profile} ownerView={ownerView} noun={noun} />

      {/* Refusals (wrong status, someone else decided first, incomplete profile) are shown here. */}
      <FormAlert id="profile-status-errors" errors={result?.error?.[""]} />

      {hasActions ? (
        <div className="flex flex-col gap-4">
          {ownerActions.submit || ownerActions.withdraw || ownerActions.unpublish ? (
            <div className="flex flex-wrap gap-2">
              {ownerActions.submit ? <PlainAction intent="submit" label="Submit for approval" pendingLabel="Submitting…" primary /> : null}
              {ownerActions.withdraw ? <PlainAction intent="withdraw" label="Withdraw submission" pendingLabel="Withdrawing…" /> : null}
              {ownerActions.unpublish ? <PlainAction intent="unpublish" label="Unpublish" pendingLabel="Unpublishing…" /> : null}
            </div>
          ) : null}

          {adminActions.decide ? (
            <div className="grid gap-4 border-t border-stone-200 pt-4 md:grid-cols-2">
              <div className="space-y-2">
                <h3 className="text-sm font-semibold text-stone-900">Approve</h3>
                <p className="text-sm text-stone-600">Publishes the {noun} in the directory and notifies the owner.</p>
                <PlainAction intent="approve" label="Approve and publish" pendingLabel="Approving…" primary />
              </div>
              <ReasonForm
                intent="reject"
                title="Reject"
                intro="The owner reads your reason and can change the profile and submit it again."
                label="Reason for the rejection"
                required
                buttonLabel="Reject"
                pendingLabel="Rejecting…"
                lastResult={resultFor("reject")}
                danger
              />
            </div>
          ) : null}

          {adminActions.unpublish ? (
            <div className="border-t border-stone-200 pt-4">
              <ReasonForm
                intent="unpublish"
                title="Unpublish"
                intro={`Takes the ${noun} out of the directory.${rights === "admin" ? " The owner is notified." : ""}`}
                label="Reason (optional, shown to the owner)"
                required={false}
                withReason={rights === "admin"}
                buttonLabel="Unpublish"
                pendingLabel="Unpublishing…"
                lastResult={resultFor("unpublish")}
                danger
              />
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

const asIso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);

function When({ value, prefix }: { value: Date | string | null; prefix: string }) {
  const iso = asIso(value);
  return iso ? (
    <>
      {prefix} <DateTime iso={iso} withTime />.{" "}
    </>
  ) : null;
}

function StatusExplanation({ profile, ownerView, noun }: { profile: PanelProfile; ownerView: boolean; noun: string }) {
  const texts: Record<ProfileStatus, ReactNode> = {
    draft: ownerView ? (
      <>
        Only you{profile.type === "artist" ? " and your band" : ""} can see this {noun}. When it is complete (a bio of at least 20 characters, at least one
        genre{PROFILE_TYPE_INFO[profile.type].provider ? " and at least one rate" : ""}), submit it for approval: an administrator reviews it before it appears
        in the directory.
      </>
    ) : (
      <>The owner has not submitted this {noun} for approval yet; it is not in the directory.</>
    ),
    pending_approval: (
      <>
        <When value={profile.submittedAt} prefix="Submitted" />
        {ownerView
          ? "An administrator is reviewing it; you will be notified of the decision. Withdraw the submission to turn it back into a draft."
          : "It waits for a decision: approve it to publish it in the directory, or reject it with a reason the owner will read."}
      </>
    ),
    published: (
      <>
        <When value={profile.publishedAt} prefix="Published" />
        It appears in the directory and its public page can be opened by every member.
        {ownerView ? " Unpublish it to take it out of the directory." : ""}
      </>
    ),
    unpublished: (
      <>
        It is not in the directory.
        {ownerView ? " Submit it for approval to publish it again." : " The owner may submit it for approval again."}
      </>
    ),
    rejected: (
      <>
        <When value={profile.reviewedAt} prefix="Reviewed" />
        {ownerView
          ? "An administrator did not approve it. Change what the reason asks for, then submit it for approval again."
          : "It was not approved; the owner may change it and submit it again."}
      </>
    ),
  };
  const showReason = (profile.status === "rejected" || profile.status === "unpublished") && profile.rejectionReason;
  return (
    <div className="space-y-3 text-sm text-stone-700">
      <p>{texts[profile.status]}</p>
      {showReason ? (
        <div className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
          <p className="font-medium">{profile.status === "rejected" ? "Reason for the rejection" : "Reason given"}</p>
          <p className="mt-1 whitespace-pre-line break-words">{profile.rejectionReason}</p>
        </div>
      ) : null}
    </div>
  );
}

const buttonClass = (kind: "primary" | "secondary" | "danger") =>
  `inline-flex w-full items-center justify-center rounded-md px-4 py-2 text-sm font-semibold shadow-sm disabled:opacity-60 sm:w-auto ${
    kind === "primary"
      ? "bg-brand-900 text-white hover:bg-brand-800"
      : kind === "danger"
        ? "bg-red-700 text-white hover:bg-red-600"
        : "border border-stone-300 bg-white text-stone-800 hover:bg-stone-50"
  }`;

/** A form with one button, named `intent`. */
function PlainAction({ intent, label, pendingLabel, primary = false }: { intent: StatusIntent; label: string; pendingLabel: string; primary?: boolean }) {
  return (
    <Form method="post" className="w-full sm:w-auto">
      <SubmitButton name="intent" value={intent} pendingLabel={pendingLabel} className={buttonClass(primary ? "primary" : "secondary")}>
        {label}
      </SubmitButton>
    </Form>
  );
}

/** Reject (reason required) or an administrator's unpublish (reason optional), with the error beside the field. */
function ReasonForm({
  intent,
  title,
  intro,
  label,
  required,
  withReason = true,
  buttonLabel,
  pendingLabel,
  lastResult,
  danger = false,
}: {
  intent: "reject" | "unpublish";
  title: string;
  intro: string;
  label: string;
  required: boolean;
  withReason?: boolean;
  buttonLabel: string;
  pendingLabel: string;
  lastResult: SubmissionResult<string[]> | undefined;
  danger?: boolean;
}) {
  const schema = intent === "reject" ? RejectSchema : UnpublishSchema;
  const [form, fields] = useForm({
    id: `profile-status-${intent}`,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const helpId = `${form.id}-reason-help`;
  const invalid = Boolean(fields.reason.errors?.length);
  return (
    <Form method="post" className="space-y-2" {...getFormProps(form)} aria-labelledby={`${form.id}-title`}>
      <h3 id={`${form.id}-title`} className="text-sm font-semibold text-stone-900">
        {title}
      </h3>
      <p className="text-sm text-stone-600">{intro}</p>
      {withReason ? (
        <div>
          <label htmlFor={fields.reason.id} className="block text-sm font-medium text-stone-800">
            {label}
          </label>
          <textarea
            {...getTextareaProps(fields.reason)}
            // Conform's `required` would stop the browser's submit before the server can answer beside the field.
            required={false}
            rows={3}
            maxLength={REASON_MAX}
            aria-required={required || undefined}
            aria-invalid={invalid || undefined}
            aria-describedby={[invalid ? fields.reason.errorId : undefined, helpId].filter(Boolean).join(" ")}
            className={`mt-1 block w-full rounded-md border bg-white px-3 py-2 text-base shadow-sm sm:text-sm ${
              invalid ? "border-red-500" : "border-stone-300"
            } focus:border-brand-700 focus:ring-1 focus:ring-brand-700 focus:outline-none`}
          />
          <p id={helpId} className="mt-1 text-xs text-stone-500">
            {required ? "Required: " : ""}5 to {REASON_MAX} characters.
          </p>
          <FieldErrors id={fields.reason.errorId} errors={fields.reason.errors} />
        </div>
      ) : null}
      <SubmitButton name="intent" value={intent} pendingLabel={pendingLabel} className={buttonClass(danger ? "danger" : "secondary")}>
        {buttonLabel}
      </SubmitButton>
    </Form>
  );
}
