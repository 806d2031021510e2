import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { Field, FieldErrors, FormAlert, SelectField, SubmitButton, TextareaField } from "~/components/forms";
import { DateTime } from "~/components/formatting";
import { StatusTag } from "~/components/status-tag";
import { percentToBps } from "~/modules/catalog/songs/song-schemas";
import type { SplitSectionData } from "./split-routes.server";
import { awaitingConfirmation, formatBps, MAX_SPLIT_PARTIES, sharesTotalProblem } from "./split-rules";
import { SplitProposalSchema } from "./split-schemas";
import type { SplitVersionState, SplitVersionView } from "./split-sheet.server";

/**
 * The split sheet on the song profile: the viewer's open answer, every version with its parties and
 * history (every party sees all of it), and, for the song's editors, the proposal form and the
 * confirm / withdraw buttons. Plain POST forms: all of it works without JavaScript.
 */

type Result = SubmissionResult<string[]> | undefined;

const STATE_TAGS: Record<SplitVersionState, string> = {
  proposed: "pending",
  scheduled: "approved",
  in_force: "active",
  superseded: "inactive",
  withdrawn: "canceled",
};

const secondaryButton =
  "inline-flex items-center justify-center rounded-md border border-stone-300 bg-white px-3 py-2 text-sm font-medium text-stone-800 shadow-sm hover:bg-stone-50";

export function SplitSection({ splits, lastResult }: { splits: SplitSectionData; lastResult: Result }) {
  const { sheet, rights } = splits;
  const open = sheet.versions.find((v) => v.state === "proposed");
  const mine = sheet.versions.flatMap((v) =>
    v.state === "withdrawn" ? [] : v.parties.filter((p) => p.isViewer && p.status === "pending").map((p) => ({ version: v, party: p })),
  );
  // A form's errors show with that form; the proposal form shows its own.
  const proposing = rights.manage && !open;
  return (
    <div className="space-y-6">
      {!proposing ? <FormAlert errors={lastResult?.error?.[""]} /> : null}
      {mine.map(({ version, party }) => (
        <div
          key={party.id}
          className="rounded-lg border border-brand-200 bg-brand-50 p-4"
          role="region"
          aria-label={`Your answer to version ${version.number}`}
        >
          <p className="text-sm text-brand-950">
            You are offered <strong>{formatBps(party.shareBps)}</strong> in version {version.number}, from {version.effectiveFrom}.
            {version.state !== "proposed" ? " It is confirmed: your share is held for you until you answer." : ""}
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Form method="post">
              <input type="hidden" name="partyId" value={party.id} />
              <SubmitButton name="intent" value="split-accept" pendingLabel="Accepting…">
                Accept {formatBps(party.shareBps)}
              </SubmitButton>
            </Form>
            <Form method="post">
              <input type="hidden" name="partyId" value={party.id} />
              <SubmitButton name="intent" value="split-decline" pendingLabel="Declining…" className={secondaryButton}>
                Decline
              </SubmitButton>
            </Form>
          </div>
        </div>
      ))}

      {sheet.versions.length === 0 ? (
        <p className="text-sm text-stone-600">No split yet: the artist page's owner receives 100% of this song's master royalties.</p>
      ) : (
        <ol className="space-y-4" aria-label="Versions of the split sheet">
          {sheet.versions.map((version) => (
            <li key={version.id}>
              <VersionCard version={version} splits={splits} />
            </li>
          ))}
        </ol>
      )}

      {sheet.history.length ? (
        <details className="rounded-md border border-stone-200 p-3">
          <summary className="cursor-pointer text-sm font-medium text-stone-800">History ({sheet.history.length})</summary>
          <ol className="mt-2 space-y-1.5 text-sm text-stone-700">
            {sheet.history.map((event) => (
              <li key={event.id}>
                <span className="text-stone-500">
                  <DateTime iso={event.at} withTime />:
                </span>{" "}
                {event.message}
              </li>
            ))}
          </ol>
        </details>
      ) : null}

      {rights.manage ? (
        open ? (
          <p className="text-sm text-stone-600">Version {open.number} is still a proposal: confirm or withdraw it before proposing another.</p>
        ) : (
          <ProposalForm splits={splits} lastResult={lastResult} />
        )
      ) : null}
    </div>
  );
}

function VersionCard({ version, splits }: { version: SplitVersionView; splits: SplitSectionData }) {
  const { rights, stateLabels, pdfBase } = splits;
  const recoup = version.parties.find((p) => p.recoup);
  const headingId = `split-version-${version.id}`;
  return (
    <article aria-labelledby={headingId} className="rounded-md border border-stone-200 p-3 sm:p-4">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="font-semibold">
          Version {version.number} · from {version.effectiveFrom}
          {version.effectiveTo ? ` to ${version.effectiveTo}` : ""}
        </h3>
        <StatusTag status={STATE_TAGS[version.state]} label={stateLabels[version.state]} />
      </header>
      <div className="mt-2 overflow-x-auto">
        <table className="w-full min-w-[28rem] text-left text-sm">
          <caption className="sr-only">Parties of version {version.number}</caption>
          <thead>
            <tr className="border-b border-stone-200 text-stone-600">
              <th scope="col" className="py-1.5 pr-2 font-medium">
                Party
              </th>
              <th scope="col" className="py-1.5 pr-2 text-right font-medium">
                Share
              </th>
              <th scope="col" className="py-1.5 pr-2 font-medium">
                Status
              </th>
              <th scope="col" className="py-1.5 font-medium">
                Answered
              </th>
            </tr>
          </thead>
          <tbody>
            {version.parties.map((party) => (
              <tr key={party.id} className="border-b border-stone-100 align-top">
                <td className="py-1.5 pr-2 break-all">
                  {party.name}
                  {party.isViewer ? <span className="text-stone-500"> (you)</span> : null}
                </td>
                <td className="py-1.5 pr-2 text-right tabular-nums">{formatBps(party.shareBps)}</td>
                <td className="py-1.5 pr-2">
                  <StatusTag status={party.status} />
                </td>
                <td className="py-1.5 text-stone-600">
                  {party.answeredAt ? <DateTime iso={party.answeredAt} /> : "—"}
                  {rights.manage && party.status === "pending" && party.email && version.state !== "withdrawn" ? (
                    <Form method="post" className="mt-1">
                      <input type="hidden" name="partyId" value={party.id} />
                      <button type="submit" name="intent" value="split-resend" className="text-xs font-medium text-brand-800 underline">
                        Send a new link
                      </button>
                    </Form>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" className="py-1.5 pr-2 text-left font-medium">
                Total
              </th>
              <td className="py-1.5 pr-2 text-right font-medium tabular-nums">{formatBps(version.parties.reduce((s, p) => s + p.shareBps, 0))}</td>
              <td colSpan={2} />
            </tr>
          </tfoot>
        </table>
      </div>
      {recoup ? (
        <p className="mt-2 text-sm text-stone-700">
          Recoup first: {recoup.recoup} to {recoup.name} from this version's income, before the percentages apply.
        </p>
      ) : null}
      {version.note ? <p className="mt-2 text-sm whitespace-pre-line text-stone-700">{version.note}</p> : null}
      <ConfirmationNotice version={version} canConfirm={rights.confirm} />
      <p className="mt-2 text-xs text-stone-500">
        Proposed{version.proposedBy ? ` by ${version.proposedBy}` : ""} on <DateTime iso={version.proposedAt} />
        {version.confirmedAt ? (
          <>
            {" "}
            · confirmed{version.confirmedBy ? ` by ${version.confirmedBy}` : ""} on <DateTime iso={version.confirmedAt} />
          </>
        ) : null}
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        {version.state !== "withdrawn" ? (
          <a href={`${pdfBase}/${version.id}`} className={secondaryButton} download>
            Download the signed sheet (PDF)
          </a>
        ) : null}
        {version.state === "proposed" && rights.confirm ? (
          <Form method="post">
            <input type="hidden" name="versionId" value={version.id} />
            <SubmitButton name="intent" value="split-confirm" pendingLabel="Confirming…">
              Confirm version {version.number}
            </SubmitButton>
          </Form>
        ) : null}
        {(version.state === "proposed" && rights.manage) || (version.state === "scheduled" && rights.confirm) ? (
          <Form method="post">
            <input type="hidden" name="versionId" value={version.id} />
            <SubmitButton name="intent" value="split-withdraw" pendingLabel="Withdrawing…" className={secondaryButton}>
              Withdraw
            </SubmitButton>
          </Form>
        ) : null}
      </div>
    </article>
  );
}

/**
 * A proposal every party has answered is still not in force: say so, and who must confirm it (the owner,
 * who also gets a notification when the last answer comes in).
 */
function ConfirmationNotice({ version, canConfirm }: { version: SplitVersionView; canConfirm: boolean }) {
  if (version.state !== "proposed") return null;
  const answered = awaitingConfirmation(version.parties);
  if (!answered) return null;
  const every = answered === "accepted" ? "Every party has accepted" : "Every party has answered";
  return (
    <p role="status" className="mt-3 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      {canConfirm ? (
        <>
          {every}. Version {version.number} is not in force until you confirm it: confirm it to put it in force from {version.effectiveFrom}.
        </>
      ) : (
        <>
          {every}. Version {version.number} is still a proposal: it takes effect from {version.effectiveFrom} once the artist page's owner confirms it.
        </>
      )}
    </p>
  );
}

/** Spare blank rows after the parties, so one can be added without JavaScript. */
const SPARE_PARTY_ROWS = 2;

function ProposalForm({ splits, lastResult }: { splits: SplitSectionData; lastResult: Result }) {
  const rows = [...splits.defaults, ...Array.from({ length: SPARE_PARTY_ROWS }, () => ({ email: "", share: "" }))].slice(0, MAX_SPLIT_PARTIES);
  const [form, fields] = useForm<{
    effectiveFrom: string;
    note: string;
    parties: Array<{ email: string; share: string }>;
    recoupParty?: number;
    recoupAmount?: string;
  }>({
    id: "split-proposal",
    lastResult,
    defaultValue: { effectiveFrom: "", note: "", parties: rows },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SplitProposalSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const list = fields.parties.getFieldList();
  const current = (form.value?.parties ?? []) as Array<{ share?: string } | undefined>;
  const shares = current.map((p) => (p?.share ? (percentToBps(p.share) ?? 0) : 0));
  const problem = sharesTotalProblem(shares);
  const total = shares.reduce((a, b) => a + b, 0);
  return (
    <Form method="post" className="space-y-4 border-t border-stone-200 pt-4" {...getFormProps(form)}>
      <h3 className="font-semibold">Propose a new version</h3>
      <input type="hidden" name="intent" value="split-propose" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <Field
        label="Effective from"
        errors={fields.effectiveFrom.errors}
        errorId={fields.effectiveFrom.errorId}
        help="Sales whose period starts on or after this date are shared by this version. It may be in the future, or in a past period no statement has been posted for yet."
        inputProps={{ ...getInputProps(fields.effectiveFrom, { type: "date" }) }}
      />
      <fieldset>
        <legend className="text-sm font-medium text-stone-800">Parties</legend>
        <p className="text-xs text-stone-500">
          A member's email address, or anyone's: those without an account are invited to create one. Leave a row empty to leave it out.
        </p>
        <FieldErrors id={fields.parties.errorId} errors={fields.parties.errors} />
        <ol className="mt-2 space-y-3">
          {list.map((row, index) => {
            const party = row.getFieldset();
            return (
              <li key={row.key} className="grid gap-3 rounded-md border border-stone-200 bg-stone-50/60 p-3 sm:grid-cols-[minmax(0,1fr)_7rem]">
                <Field
                  label={`Party ${index + 1} email`}
                  errors={party.email.errors}
                  errorId={party.email.errorId}
                  inputProps={{ ...getInputProps(party.email, { type: "email" }), maxLength: 254, autoComplete: "off" }}
                />
                <Field
                  label="Share %"
                  errors={party.share.errors}
                  errorId={party.share.errorId}
                  inputProps={{ ...getInputProps(party.share, { type: "text" }), inputMode: "decimal", maxLength: 6 }}
                />
              </li>
            );
          })}
        </ol>
        <p aria-live="polite" className={`mt-2 text-sm ${problem ? "text-amber-800" : "text-green-800"}`}>
          {problem ?? `The shares total ${formatBps(total)}.`}
        </p>
        <p className="text-xs text-stone-500">Save to get more empty rows (up to {MAX_SPLIT_PARTIES} parties).</p>
      </fieldset>
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="text-sm font-medium text-stone-800">Recoup before percentage (optional)</legend>
        <SelectField
          label="Who recoups first"
          errors={fields.recoupParty.errors}
          errorId={fields.recoupParty.errorId}
          selectProps={getSelectProps(fields.recoupParty)}
          options={[{ value: "", label: "No one" }, ...list.map((_, i) => ({ value: String(i + 1), label: `Party ${i + 1}` }))]}
        />
        <Field
          label="Amount (USD)"
          errors={fields.recoupAmount.errors}
          errorId={fields.recoupAmount.errorId}
          help="Paid to that party from this version's income first, e.g. a producer's advance; then the percentages apply."
          inputProps={{ ...getInputProps(fields.recoupAmount, { type: "text" }), inputMode: "decimal", maxLength: 13, placeholder: "1500.00" }}
        />
      </fieldset>
      <TextareaField
        label="Note (optional)"
        errors={fields.note.errors}
        errorId={fields.note.errorId}
        textareaProps={{ ...getTextareaProps(fields.note), rows: 2, maxLength: 1000 }}
      />
      <div className="flex justify-end">
        <SubmitButton pendingLabel="Proposing…">Propose and invite the parties</SubmitButton>
      </div>
    </Form>
  );
}
