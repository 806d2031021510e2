import { getCollectionProps, getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import { Form, Link, useActionData, useLocation } from "react-router";
import { AudioPlayer } from "~/components/audio-player";
import { DataTable, type DataColumn } from "~/components/data-table";
import { CheckboxField, Field, FieldErrors, FormAlert, inputClass, SelectField, SubmitButton, TextareaField } from "~/components/forms";
import { ListEmptyState } from "~/components/list-empty-state";
import { Pagination } from "~/components/pagination";
import { StatusTag } from "~/components/status-tag";
import { DeliveriesSection } from "~/modules/catalog/delivery/delivery-section";
import { releaseStatuses, type ReleaseRejectionReason, type ReleaseStatus } from "~/db/schema";
import type { ReleaseDetail, StatusChangeItem } from "~/modules/catalog/catalog.server";
import type { ReleasePreflightProblem } from "./preflight.server";
import type { ReleaseListQuery, ReleaseRow } from "./release-list.server";
import {
  formatDuration,
  RELEASE_STATUS_LABELS,
  RELEASE_TYPE_OPTIONS,
  releaseFieldAnchor,
  REVIEW_FIELDS,
  songAudioPath,
  STORES,
  TERRITORIES,
  WORLDWIDE,
} from "./release-options";
import { ReleaseSplitsSummary } from "~/modules/splits/shares-section";
import type {
  AdminReleaseProfileData,
  AdminReleasesData,
  MemberReleaseProfileData,
  MemberReleasesData,
  MemberReleaseStatusData,
  ReleaseActionData,
  ReleaseForm,
} from "./release-routes.server";
import { ReleaseDetailsSchema, ReleaseStoresSchema, RejectSchema, TakedownSchema } from "./release-schemas";

/**
 * The release pages (member and admin) and their forms. Each form is a plain POST with an `intent` that
 * works without JavaScript; the forms take the `action` URL and an optional `step` (a hidden field) so the
 * guided distribution flow can render them on its own pages and handle them with the exported intent
 * handlers of release-routes.server.ts.
 */

type Result = SubmissionResult<string[]> | undefined;
type Options = { genre: Array<{ id: number; name: string }>; language: Array<{ id: number; name: string }> };

/** The action data for one form of the page (undefined for the others). */
export function useReleaseActionResult(form: ReleaseForm): { result: Result; problems?: ReleasePreflightProblem[] } {
  const actionData = useActionData() as ReleaseActionData | undefined;
  return actionData?.form === form ? { result: actionData.result, problems: actionData.problems } : { result: undefined };
}

const buttonSecondary =
  "inline-flex items-center justify-center rounded-md border border-stone-300 bg-white px-3 py-2 text-sm font-medium text-stone-800 shadow-sm hover:bg-stone-50 focus-visible:ring-2 focus-visible:ring-brand-700 focus-visible:outline-none disabled:opacity-60";
const buttonPrimary =
  "inline-flex items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60";
const buttonDanger =
  "inline-flex items-center justify-center rounded-md bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-600 disabled:opacity-60";

function StepField({ step }: { step?: string }) {
  return step ? <input type="hidden" name="step" value={step} /> : null;
}

export function Section({ id, title, description, children }: { id?: string; title: string; description?: ReactNode; children: ReactNode }) {
  const headingId = `${id ?? title.toLowerCase().replace(/\W+/g, "-")}-heading`;
  return (
    <section id={id} aria-labelledby={headingId} className="scroll-mt-20 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id={headingId} className="text-lg font-semibold">
        {title}
      </h2>
      {description ? <p className="mt-1 text-sm text-stone-600">{description}</p> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}

export function ReleaseStatusTag({ status }: { status: ReleaseStatus }) {
  const tone: Record<ReleaseStatus, string> = {
    draft: "draft",
    pending_approval: "pending_approval",
    approved: "approved",
    rejected: "rejected",
    in_distribution: "published",
    takedown_requested: "pending",
    taken_down: "inactive",
  };
  return <StatusTag status={tone[status]} label={RELEASE_STATUS_LABELS[status]} />;
}

/** An administrator's reason beside the field it is about. */
function ReasonNote({ reasons, fields }: { reasons: ReleaseRejectionReason[] | null | undefined; fields: string[] }) {
  const mine = (reasons ?? []).filter((r) => fields.includes(r.field));
  if (!mine.length) return null;
  return (
    <div className="mt-1 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
      {mine.map((r) => (
        <p key={r.field}>
          <span className="font-medium">Reviewer: </span>
          {r.message}
        </p>
      ))}
    </div>
  );
}

/* ------------------------------------------------------------------ forms (reusable by the flow) */

export interface ReleaseFormProps {
  /** The URL the form posts to (the page itself, or a step of the distribution flow). */
  action?: string;
  /** Sent as a hidden `step` field. */
  step?: string;
  lastResult?: Result;
  /** The save button's label (the flow says "Save and continue"). */
  submitLabel?: string;
}

/** The details form. Without `release` it creates one (intent `create`, with the artist chooser). */
export function ReleaseDetailsForm({
  release,
  artists,
  options,
  action,
  step,
  lastResult,
  submitLabel,
}: ReleaseFormProps & {
  release?: Pick<
    ReleaseDetail,
    | "title"
    | "slug"
    | "type"
    | "upc"
    | "label"
    | "pLine"
    | "cLine"
    | "primaryGenreId"
    | "secondaryGenreId"
    | "languageId"
    | "releaseDate"
    | "previouslyReleased"
    | "previousReleaseDate"
    | "parentalAdvisory"
    | "rejectionReasons"
  >;
  artists?: Array<{ id: number; name: string }>;
  options: Options;
}) {
  const [form, fields] = useForm({
    id: "release-details",
    lastResult,
    defaultValue: release
      ? {
          title: release.title,
          slug: release.slug,
          type: release.type,
          upc: release.upc ?? "",
          label: release.label,
          pLine: release.pLine,
          cLine: release.cLine,
          primaryGenreId: release.primaryGenreId ? String(release.primaryGenreId) : "",
          secondaryGenreId: release.secondaryGenreId ? String(release.secondaryGenreId) : "",
          languageId: release.languageId ? String(release.languageId) : "",
          releaseDate: release.releaseDate ?? "",
          previouslyReleased: release.previouslyReleased ? "on" : undefined,
          previousReleaseDate: release.previousReleaseDate ?? "",
          parentalAdvisory: release.parentalAdvisory ? "on" : undefined,
        }
      : { type: "single", artistId: artists?.length === 1 ? String(artists[0]!.id) : "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReleaseDetailsSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const reasons = release?.rejectionReasons;
  const anchor = (field: string) => ({ id: releaseFieldAnchor(field) });
  const genreOptions = [{ value: "", label: "Choose…" }, ...options.genre.map((g) => ({ value: g.id, label: g.name }))];
  return (
    <Form method="post" action={action} className="space-y-5" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={release ? "details" : "create"} />
      <StepField step={step} />
      <FormAlert id={form.errorId} errors={form.errors} />
      {!release ? (
        <SelectField
          label="Artist page"
          errors={fields.artistId.errors}
          errorId={fields.artistId.errorId}
          selectProps={{ ...getSelectProps(fields.artistId), ...anchor("artist") }}
          options={[{ value: "", label: "Choose…" }, ...(artists ?? []).map((a) => ({ value: a.id, label: a.name }))]}
          help="The artist the release comes out under."
        />
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <Field
            label="Title"
            errors={fields.title.errors}
            errorId={fields.title.errorId}
            inputProps={{ ...getInputProps(fields.title, { type: "text" }), ...anchor("title"), maxLength: 200 }}
          />
          <ReasonNote reasons={reasons} fields={["title"]} />
        </div>
        {release ? (
          <Field
            label="Address (slug)"
            errors={fields.slug.errors}
            errorId={fields.slug.errorId}
            help="Lowercase letters, digits and hyphens: the end of the release page's address."
            inputProps={{ ...getInputProps(fields.slug, { type: "text" }), ...anchor("slug"), maxLength: 80 }}
          />
        ) : null}
        <div>
          <SelectField
            label="Release type"
            errors={fields.type.errors}
            errorId={fields.type.errorId}
            selectProps={{ ...getSelectProps(fields.type), ...anchor("type") }}
            options={RELEASE_TYPE_OPTIONS}
            help="Single: 1–3 tracks; EP: 4–6 under 30 minutes; Album: 7 or more, or over 30 minutes."
          />
          <ReasonNote reasons={reasons} fields={["type"]} />
        </div>
        <div>
          <Field
            label="UPC / EAN (optional)"
            errors={fields.upc.errors}
            errorId={fields.upc.errorId}
            help="Leave empty and we assign one when you submit."
            inputProps={{ ...getInputProps(fields.upc, { type: "text" }), ...anchor("upc"), inputMode: "numeric", maxLength: 16 }}
          />
          <ReasonNote reasons={reasons} fields={["upc"]} />
        </div>
        <div>
          <Field
            label="Label"
            errors={fields.label.errors}
            errorId={fields.label.errorId}
            inputProps={{ ...getInputProps(fields.label, { type: "text" }), ...anchor("label"), maxLength: 200 }}
          />
          <ReasonNote reasons={reasons} fields={["label"]} />
        </div>
        <Field
          label="℗ line (sound recording owner)"
          errors={fields.pLine.errors}
          errorId={fields.pLine.errorId}
          inputProps={{ ...getInputProps(fields.pLine, { type: "text" }), ...anchor("p_line"), maxLength: 200, placeholder: "℗ 2027 Your Name" }}
        />
        <Field
          label="© line (artwork owner)"
          errors={fields.cLine.errors}
          errorId={fields.cLine.errorId}
          inputProps={{ ...getInputProps(fields.cLine, { type: "text" }), ...anchor("c_line"), maxLength: 200, placeholder: "© 2027 Your Name" }}
        />
        <div>
          <SelectField
            label="Primary genre"
            errors={fields.primaryGenreId.errors}
            errorId={fields.primaryGenreId.errorId}
            selectProps={{ ...getSelectProps(fields.primaryGenreId), ...anchor("primary_genre") }}
            options={genreOptions}
          />
          <ReasonNote reasons={reasons} fields={["primary_genre"]} />
        </div>
        <SelectField
          label="Secondary genre (optional)"
          errors={fields.secondaryGenreId.errors}
          errorId={fields.secondaryGenreId.errorId}
          selectProps={{ ...getSelectProps(fields.secondaryGenreId), ...anchor("secondary_genre") }}
          options={[{ value: "", label: "None" }, ...options.genre.map((g) => ({ value: g.id, label: g.name }))]}
        />
        <div>
          <SelectField
            label="Language"
            errors={fields.languageId.errors}
            errorId={fields.languageId.errorId}
            selectProps={{ ...getSelectProps(fields.languageId), ...anchor("language") }}
            options={[{ value: "", label: "Choose…" }, ...options.language.map((l) => ({ value: l.id, label: l.name }))]}
          />
          <ReasonNote reasons={reasons} fields={["language"]} />
        </div>
        <div>
          <Field
            label="Release date"
            errors={fields.releaseDate.errors}
            errorId={fields.releaseDate.errorId}
            help="A new release: at least 7 days from today, so stores can list it in time."
            inputProps={{ ...getInputProps(fields.releaseDate, { type: "date" }), ...anchor("release_date") }}
          />
          <ReasonNote reasons={reasons} fields={["release_date"]} />
        </div>
        <div className="space-y-3 sm:col-span-2">
          <CheckboxField
            label="This release came out before (a re-release)"
            errors={fields.previouslyReleased.errors}
            errorId={fields.previouslyReleased.errorId}
            inputProps={{ ...getInputProps(fields.previouslyReleased, { type: "checkbox" }), ...anchor("previously_released") }}
          />
          <Field
            label="Original release date (for a re-release)"
            errors={fields.previousReleaseDate.errors}
            errorId={fields.previousReleaseDate.errorId}
            inputProps={{ ...getInputProps(fields.previousReleaseDate, { type: "date" }), ...anchor("previous_release_date") }}
          />
          <CheckboxField
            label="Explicit (parental advisory): at least one track is explicit"
            errors={fields.parentalAdvisory.errors}
            errorId={fields.parentalAdvisory.errorId}
            inputProps={{ ...getInputProps(fields.parentalAdvisory, { type: "checkbox" }), ...anchor("parental_advisory") }}
          />
          <ReasonNote reasons={reasons} fields={["parental_advisory"]} />
        </div>
      </div>
      <div className="flex justify-end">
        <SubmitButton name="intent" value={release ? "details" : "create"} pendingLabel="Saving…" className={buttonPrimary}>
          {submitLabel ?? (release ? "Save details" : "Create release")}
        </SubmitButton>
      </div>
    </Form>
  );
}

export function ReleaseStoresForm({
  release,
  action,
  step,
  lastResult,
  submitLabel,
}: ReleaseFormProps & { release: Pick<ReleaseDetail, "stores" | "territories" | "rejectionReasons"> }) {
  const worldwide = release.territories.includes(WORLDWIDE);
  const [form, fields] = useForm({
    id: "release-stores",
    lastResult,
    defaultValue: {
      stores: release.stores,
      worldwide: worldwide || release.territories.length === 0 ? "on" : undefined,
      territories: release.territories.filter((t) => t !== WORLDWIDE),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReleaseStoresSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const storeNames = new Map<string, string>(STORES.map((s) => [s.code, s.name]));
  const territoryNames = new Map<string, string>(TERRITORIES.map((t) => [t.code, t.name]));
  return (
    <Form method="post" action={action} className="space-y-5" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="stores" />
      <StepField step={step} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <fieldset id={releaseFieldAnchor("stores")} className="scroll-mt-20">
        <legend className="text-sm font-medium text-stone-800">Stores</legend>
        <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
          {getCollectionProps(fields.stores, { type: "checkbox", options: STORES.map((s) => s.code) }).map(({ key, ...props }) => (
            <div key={key} className="flex items-start gap-2">
              <input {...props} className="mt-0.5 size-4 rounded border-stone-300 accent-brand-800" />
              <label htmlFor={props.id} className="text-sm text-stone-800">
                {storeNames.get(props.value)}
              </label>
            </div>
          ))}
        </div>
        <FieldErrors id={fields.stores.errorId} errors={fields.stores.errors} />
        <ReasonNote reasons={release.rejectionReasons} fields={["stores"]} />
      </fieldset>
      <fieldset id={releaseFieldAnchor("territories")} className="scroll-mt-20">
        <legend className="text-sm font-medium text-stone-800">Territories</legend>
        <div className="mt-2">
          <CheckboxField label="Worldwide" inputProps={getInputProps(fields.worldwide, { type: "checkbox" })} />
        </div>
        <p className="mt-2 text-xs text-stone-500">Or only these territories (ignored when worldwide is ticked):</p>
        <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-3">
          {getCollectionProps(fields.territories, { type: "checkbox", options: TERRITORIES.map((t) => t.code) }).map(({ key, ...props }) => (
            <div key={key} className="flex items-start gap-2">
              <input {...props} className="mt-0.5 size-4 rounded border-stone-300 accent-brand-800" />
              <label htmlFor={props.id} className="text-sm text-stone-800">
                {territoryNames.get(props.value)}
              </label>
            </div>
          ))}
        </div>
        <FieldErrors id={fields.territories.errorId} errors={fields.territories.errors} />
      </fieldset>
      <div className="flex justify-end">
        <SubmitButton name="intent" value="stores" pendingLabel="Saving…" className={buttonPrimary}>
          {submitLabel ?? "Save stores and territories"}
        </SubmitButton>
      </div>
    </Form>
  );
}

/** The ordered tracks with move up/down and remove, and the chooser of the artist's other songs. */
export function ReleaseTracksEditor({
  release,
  songs,
  action,
  step,
  lastResult,
  songPath,
}: ReleaseFormProps & {
  release: Pick<ReleaseDetail, "tracks" | "rejectionReasons">;
  songs: Array<{ id: number; title: string; version: string; durationSeconds: number | null }>;
  /** The song profile's address (links to fix a track). */
  songPath?: (songId: number) => string;
}) {
  const [form, fields] = useForm({ id: "release-tracks", lastResult });
  const rowButton = "rounded-md border border-stone-300 bg-white px-2 py-1 text-xs font-medium text-stone-700 hover:bg-stone-50 disabled:opacity-40";
  return (
    <div id={releaseFieldAnchor("tracks")} className="scroll-mt-20 space-y-4">
      <FormAlert id={form.errorId} errors={form.errors} />
      <ReasonNote reasons={release.rejectionReasons} fields={["tracks"]} />
      {release.tracks.length === 0 ? (
        <p className="text-sm text-stone-600">No tracks yet: add the artist's songs below.</p>
      ) : (
        <ol className="divide-y divide-stone-200 rounded-md border border-stone-200" aria-label="Tracks">
          {release.tracks.map((track, index) => (
            <li key={track.songId} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <p className="font-medium break-words">
                  {track.position}.{" "}
                  {songPath ? (
                    <Link to={songPath(track.songId)} className="underline-offset-2 hover:underline">
                      {track.title}
                    </Link>
                  ) : (
                    track.title
                  )}
                  {track.version ? <span className="text-stone-500"> ({track.version})</span> : null}
                </p>
                <p className="text-xs text-stone-500">
                  {formatDuration(track.durationSeconds)} · {track.isrc ?? "ISRC assigned at submission"}
                  {track.explicit ? " · Explicit" : ""}
                  {track.audio ? "" : " · No audio yet"}
                </p>
              </div>
              <div className="flex gap-2">
                {(["up", "down"] as const).map((direction) => (
                  <Form key={direction} method="post" action={action}>
                    <input type="hidden" name="songId" value={track.songId} />
                    <input type="hidden" name="direction" value={direction} />
                    <StepField step={step} />
                    <button
                      type="submit"
                      name="intent"
                      value="move-track"
                      disabled={direction === "up" ? index === 0 : index === release.tracks.length - 1}
                      className={rowButton}
                      aria-label={`Move “${track.title}” ${direction}`}
                    >
                      {direction === "up" ? "↑ Up" : "↓ Down"}
                    </button>
                  </Form>
                ))}
                <Form method="post" action={action}>
                  <input type="hidden" name="songId" value={track.songId} />
                  <StepField step={step} />
                  <button type="submit" name="intent" value="remove-track" className={rowButton} aria-label={`Remove “${track.title}”`}>
                    Remove
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ol>
      )}
      <Form method="post" action={action} className="flex flex-col gap-3 sm:flex-row sm:items-end" {...getFormProps(form)}>
        <StepField step={step} />
        <div className="flex-1">
          <SelectField
            label="Add a song"
            errors={fields.songId.errors}
            errorId={fields.songId.errorId}
            selectProps={{ ...getSelectProps(fields.songId), id: "release-add-song" }}
            options={[
              { value: "", label: songs.length ? "Choose a song…" : "No other songs of this artist" },
              ...songs.map((s) => ({ value: s.id, label: `${s.title}${s.version ? ` (${s.version})` : ""} · ${formatDuration(s.durationSeconds)}` })),
            ]}
          />
        </div>
        <SubmitButton name="intent" value="add-track" pendingLabel="Adding…" className={buttonSecondary}>
          Add track
        </SubmitButton>
      </Form>
    </div>
  );
}

export function ReleaseCoverForm({
  release,
  coverUrl,
  action,
  step,
  lastResult,
}: ReleaseFormProps & {
  release: Pick<ReleaseDetail, "title" | "coverArtPath" | "coverArtWidth" | "coverArtHeight" | "rejectionReasons">;
  coverUrl: string | null;
}) {
  const [form, fields] = useForm({ id: "release-cover", lastResult });
  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div className="size-40 shrink-0 overflow-hidden rounded-md border border-stone-200 bg-stone-100">
          {coverUrl ? (
            <img src={coverUrl} alt={`Cover art of ${release.title}`} width={160} height={160} className="size-full object-cover" />
          ) : (
            <p className="flex size-full items-center justify-center p-2 text-center text-xs text-stone-500">No cover art yet</p>
          )}
        </div>
        <div className="min-w-0 flex-1 space-y-3">
          {release.coverArtWidth ? (
            <p className="text-sm text-stone-600">
              Uploaded: {release.coverArtWidth}x{release.coverArtHeight} pixels.
            </p>
          ) : null}
          <ReasonNote reasons={release.rejectionReasons} fields={["cover"]} />
          <Form method="post" action={action} encType="multipart/form-data" className="space-y-3" {...getFormProps(form)}>
            <StepField step={step} />
            <FormAlert id={form.errorId} errors={form.errors} />
            <Field
              label="Cover art"
              errors={fields.cover.errors}
              errorId={fields.cover.errorId}
              help="A square JPEG or PNG in RGB colour, at least 1400x1400 pixels (3000x3000 recommended), at most 5 MB. No URLs, social handles or prices on it."
              inputProps={{ ...getInputProps(fields.cover, { type: "file" }), id: releaseFieldAnchor("cover"), accept: "image/jpeg,image/png" }}
            />
            <div className="flex flex-wrap gap-2">
              <SubmitButton name="intent" value="cover" pendingLabel="Uploading…" className={buttonPrimary}>
                Upload cover art
              </SubmitButton>
            </div>
          </Form>
          {release.coverArtPath ? (
            <Form method="post" action={action}>
              <StepField step={step} />
              <button type="submit" name="intent" value="remove-cover" className={buttonSecondary}>
                Remove cover art
              </button>
            </Form>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/* ------------------------------------------------------------------ shared panels */

export function PreflightList({
  problems,
  title = "Preflight check",
  refused = false,
}: {
  problems: ReleasePreflightProblem[];
  title?: string;
  refused?: boolean;
}) {
  const blocking = problems.filter((p) => p.blocking);
  const notes = problems.filter((p) => !p.blocking);
  return (
    <div aria-label={title} role="region" className="space-y-3">
      {blocking.length === 0 ? (
        <p className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">Everything the stores need is there.</p>
      ) : (
        // A refused submission is said here, once: the problems are the reason (no second box above or below).
        <div role={refused ? "alert" : undefined} className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          <p className="font-medium">
            {refused ? "Not submitted: " : ""}
            {blocking.length} {blocking.length === 1 ? "problem blocks" : "problems block"} submission:
          </p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {blocking.map((p) => (
              <li key={`${p.code}-${p.field}`} data-code={p.code}>
                {p.message}{" "}
                <Link to={p.fixHref} className="font-medium underline">
                  Fix
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
      {notes.length ? (
        <ul className="list-disc space-y-1 pl-5 text-sm text-stone-700">
          {notes.map((p) => (
            <li key={`${p.code}-${p.field}`} data-code={p.code}>
              {p.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * The preflight and the submit button, as one panel: after a refused submission its problems replace the list (one
 * box, named "Why the submission was refused"), never a second list or an alert repeating it.
 */
export function SubmitPanel({
  problems,
  submit,
  action,
  step,
  title,
}: Pick<ReleaseFormProps, "action" | "step"> & {
  problems: ReleasePreflightProblem[];
  submit: { result: Result; problems?: ReleasePreflightProblem[] };
  title?: string;
}) {
  const refused = Boolean(submit.problems?.length);
  return (
    <div className="space-y-4">
      {refused ? (
        <PreflightList problems={submit.problems!} title="Why the submission was refused" refused />
      ) : (
        <PreflightList problems={problems} title={title} />
      )}
      <SubmitForm action={action} step={step} problems={submit.problems ?? problems} result={submit} />
    </div>
  );
}

export function RejectionReasonsPanel({ reasons, profilePath }: { reasons: ReleaseRejectionReason[] | null; profilePath?: string }) {
  if (!reasons?.length) return null;
  const labels = new Map<string, string>(REVIEW_FIELDS.map((f) => [f.field, f.label]));
  return (
    <div role="region" aria-label="Reviewer's reasons" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
      <p className="font-semibold">The reviewer asked for changes:</p>
      <ul className="mt-2 space-y-1">
        {reasons.map((r) => (
          <li key={r.field}>
            {profilePath ? (
              <Link to={`${profilePath}#${releaseFieldAnchor(r.field)}`} className="font-medium underline">
                {labels.get(r.field) ?? r.field}
              </Link>
            ) : (
              <span className="font-medium">{labels.get(r.field) ?? r.field}</span>
            )}
            : {r.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function StatusHistoryList({ history }: { history: StatusChangeItem[] }) {
  if (!history.length) return <p className="text-sm text-stone-600">No changes yet.</p>;
  return (
    <ol className="space-y-2 text-sm">
      {history.map((h) => (
        <li key={h.id} className="rounded-md border border-stone-200 p-2">
          <p>
            <span className="font-medium">{RELEASE_STATUS_LABELS[h.toStatus]}</span>
            {h.actor ? ` by ${h.actor.name} ${h.actor.lastName}` : ""}
            <span className="text-stone-500"> · {new Date(h.createdAt).toISOString().slice(0, 16).replace("T", " ")} UTC</span>
          </p>
          {h.reason ? <p className="mt-1 whitespace-pre-line text-stone-700">{h.reason}</p> : null}
        </li>
      ))}
    </ol>
  );
}

function TakedownForm({ action, lastResult }: { action?: string; lastResult: Result }) {
  const [form, fields] = useForm({
    id: "release-takedown",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TakedownSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" action={action} className="space-y-3" {...getFormProps(form)}>
      <FormAlert id={form.errorId} errors={form.errors} />
      <TextareaField
        label="Why should the release be taken down?"
        errors={fields.reason.errors}
        errorId={fields.reason.errorId}
        textareaProps={{ ...getTextareaProps(fields.reason), maxLength: 1000, rows: 3 }}
      />
      <SubmitButton name="intent" value="takedown" pendingLabel="Requesting…" className={buttonDanger}>
        Request takedown
      </SubmitButton>
    </Form>
  );
}

export function SubmitForm({
  action,
  step,
  problems,
  result,
}: Pick<ReleaseFormProps, "action" | "step"> & { problems: ReleasePreflightProblem[]; result: { result: Result; problems?: ReleasePreflightProblem[] } }) {
  const blocking = problems.some((p) => p.blocking);
  return (
    <Form method="post" action={action} className="space-y-3">
      <StepField step={step} />
      {/* A refusal with problems is shown by the list (SubmitPanel); any other refusal (the release moved on) here. */}
      <FormAlert errors={result.problems?.length ? undefined : (result.result?.error?.[""] ?? undefined)} />
      <p className="text-sm text-stone-600">
        {blocking
          ? "Fix the problems above first; you can still try, and we will tell you what is missing."
          : "An administrator reviews the release before it goes to the stores."}
      </p>
      <SubmitButton name="intent" value="submit" pendingLabel="Submitting…" className={buttonPrimary}>
        Submit for review
      </SubmitButton>
    </Form>
  );
}

/* ------------------------------------------------------------------ lists */

function ReleaseSearchForm({ query, label }: { query: ReleaseListQuery; label: string }) {
  const location = useLocation();
  return (
    <Form
      method="get"
      role="search"
      aria-label={label}
      key={location.search}
      className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto]"
    >
      <div>
        <label htmlFor="release-search" className="block text-sm font-medium text-stone-800">
          Search by title, artist or UPC
        </label>
        <input id="release-search" type="search" name="q" defaultValue={query.q} maxLength={100} className={inputClass} />
      </div>
      <div>
        <label htmlFor="release-status" className="block text-sm font-medium text-stone-800">
          Status
        </label>
        <select id="release-status" name="status" defaultValue={query.status ?? ""} className={inputClass}>
          <option value="">All statuses</option>
          {releaseStatuses.map((s) => (
            <option key={s} value={s}>
              {RELEASE_STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex items-end gap-2">
        <button type="submit" className={buttonPrimary}>
          Search
        </button>
        {query.q || query.status ? (
          <Link
            to={location.pathname}
            className="inline-flex items-center justify-center rounded-md px-3 py-2 text-sm font-medium text-stone-700 hover:bg-stone-100"
          >
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

type ListRow = ReleaseRow & { coverUrl: string | null; statusPath?: string };

function releaseColumns(linkFor: (row: ListRow) => string, extra: Array<DataColumn<ListRow>> = []): Array<DataColumn<ListRow>> {
  return [
    {
      key: "title",
      header: "Release",
      rowHeader: true,
      cell: (r) => (
        <Link to={linkFor(r)} className="font-medium text-brand-900 underline-offset-2 hover:underline">
          {r.title}
        </Link>
      ),
    },
    { key: "artist", header: "Artist", cell: (r) => r.artist.name },
    { key: "type", header: "Type", cell: (r) => RELEASE_TYPE_OPTIONS.find((t) => t.value === r.type)?.label },
    { key: "tracks", header: "Tracks", cell: (r) => r.trackCount, align: "right" },
    { key: "date", header: "Release date", cell: (r) => r.releaseDate ?? "–" },
    { key: "upc", header: "UPC", cell: (r) => r.upc ?? "–" },
    { key: "status", header: "Status", cell: (r) => <ReleaseStatusTag status={r.status} /> },
    ...extra,
  ];
}

function ReleaseListSection({
  query,
  list,
  linkFor,
  extra,
  emptyHint,
}: {
  query: ReleaseListQuery;
  list: MemberReleasesData["list"] | AdminReleasesData["list"];
  linkFor: (row: ListRow) => string;
  extra?: Array<DataColumn<ListRow>>;
  emptyHint?: ReactNode;
}) {
  const filtered = Boolean(query.q || query.status);
  return (
    <section aria-labelledby="release-list-heading" className="space-y-4">
      <h2 id="release-list-heading" className="sr-only">
        Release list
      </h2>
      <ReleaseSearchForm query={query} label="Filter releases" />
      <DataTable
        caption={
          <>
            Releases{filtered ? " matching the search" : ""}, page {list.page} of {list.pageCount}
          </>
        }
        columns={releaseColumns(linkFor, extra)}
        rows={list.rows as ListRow[]}
        rowKey={(r) => r.id}
        empty={
          <ListEmptyState
            total={list.total}
            pageCount={list.pageCount}
            filtered={filtered}
            noMatch="No releases match this search."
            noMatchHint="Try another title"
            empty="No releases yet."
            emptyHint={emptyHint}
          />
        }
      />
      <Pagination
        page={list.page}
        pageCount={list.pageCount}
        total={list.total}
        pageSize={list.pageSize}
        noun={["release", "releases"]}
        label="Release list pages"
      />
    </section>
  );
}

/* ------------------------------------------------------------------ pages */

export function MemberReleasesPage({ loaderData }: { loaderData: MemberReleasesData }) {
  const { memberId, query, list } = loaderData;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Releases</h1>
          <p className="mt-1 text-sm text-stone-600">The releases of your artist pages, from draft to the stores.</p>
        </div>
        <Link to={`/member/${memberId}/release-profile/new`} className={buttonPrimary}>
          New release
        </Link>
      </div>
      <ReleaseListSection
        query={query}
        list={list}
        linkFor={(r) => r.statusPath!}
        extra={[
          {
            key: "edit",
            header: "Actions",
            headerHidden: true,
            cell: (r) => (
              <Link to={`/member/${memberId}/release-profile/${r.id}`} className="text-sm font-medium text-brand-800 underline" aria-label={`Edit ${r.title}`}>
                Edit
              </Link>
            ),
          },
        ]}
        emptyHint="Start one with “New release”."
      />
    </div>
  );
}

export function MemberReleaseProfilePage({ loaderData }: { loaderData: MemberReleaseProfileData }) {
  const data = loaderData;
  const details = useReleaseActionResult("details");
  const stores = useReleaseActionResult("stores");
  const tracks = useReleaseActionResult("tracks");
  const cover = useReleaseActionResult("cover");
  const submit = useReleaseActionResult("submit");
  if (data.mode === "new") {
    return (
      <div className="mx-auto w-full max-w-4xl space-y-6">
        <header>
          <p className="text-sm font-medium text-stone-500">Release</p>
          <h1 className="text-2xl font-semibold tracking-tight">New release</h1>
        </header>
        {data.artists.length === 0 ? (
          <p className="rounded-md border border-stone-200 bg-white p-4 text-sm text-stone-700">
            You need an artist page first: a release comes out under an artist page you own or may edit.
          </p>
        ) : (
          <Section title="Details" id="details">
            <ReleaseDetailsForm artists={data.artists} options={data.options} lastResult={details.result} />
          </Section>
        )}
      </div>
    );
  }
  const { release, memberId, actions, problems, songs, options, coverUrl, version, splits } = data;
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="text-sm font-medium text-stone-500">Release · {release.artist.name}</p>
          <h1 className="mt-0.5 text-2xl font-semibold tracking-tight break-words">{release.title}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-stone-600">
            <ReleaseStatusTag status={release.status} />
            {release.upc ? <span>UPC {release.upc}</span> : null}
          </p>
        </div>
        <Link to={data.statusPath} className={buttonSecondary}>
          Status and history
        </Link>
      </header>
      <RejectionReasonsPanel reasons={release.status === "rejected" ? release.rejectionReasons : null} />
      {!actions.edit ? (
        <p className="rounded-md border border-stone-200 bg-stone-50 p-4 text-sm text-stone-700">
          This release is {RELEASE_STATUS_LABELS[release.status].toLowerCase()}: it can no longer be changed here.
        </p>
      ) : (
        <>
          <Section title="Details" id="details">
            <ReleaseDetailsForm key={`d-${version}`} release={release} options={options!} lastResult={details.result} />
          </Section>
          <Section title="Tracks" id="tracks" description="The artist's songs, in the order they play.">
            <ReleaseTracksEditor
              key={`t-${version}-${release.tracks.length}`}
              release={release}
              songs={songs}
              lastResult={tracks.result}
              songPath={(id) => `/member/${memberId}/song-profile/${id}`}
            />
          </Section>
          <Section title="Cover art" id="cover">
            <ReleaseCoverForm key={`c-${version}`} release={release} coverUrl={coverUrl} lastResult={cover.result} />
          </Section>
          <Section title="Stores and territories" id="stores">
            <ReleaseStoresForm key={`s-${version}`} release={release} lastResult={stores.result} />
          </Section>
          <Section title="Check and submit" id="submit">
            <SubmitPanel problems={problems} submit={submit} />
          </Section>
        </>
      )}
      <Section title="Splits" id="splits" description="Who shares each track's master royalties. Each song's split sheet is on its song page.">
        <ReleaseSplitsSummary tracks={release.tracks} summaries={splits} songPath={(id) => `/member/${memberId}/song-profile/${id}`} />
      </Section>
    </div>
  );
}

/** What the member's release status means now and what comes next, in plain words. */
function nextSteps(release: Pick<ReleaseDetail, "status" | "tag" | "releaseDate">, storeCount: number): { now: string; next: string } {
  const date = release.releaseDate ? formatDay(release.releaseDate) : null;
  const stores = `${storeCount} ${storeCount === 1 ? "store" : "stores"}`;
  switch (release.status) {
    case "draft":
      return {
        now: "Not submitted yet.",
        next: "Finish it (tracks, cover art, stores) and submit it for review: the preflight below says what is still missing.",
      };
    case "pending_approval":
      return {
        now: "Submitted: an administrator is reviewing it (the audio, the cover art, the codes and the details). It cannot be changed while it is reviewed.",
        next: `You are notified of the outcome. Once approved it is delivered to the ${stores} you chose${date ? ` and goes live on ${date}` : ""}; if something must change, the reviewer's reasons show here and you can edit it and submit it again.`,
      };
    case "rejected":
      return { now: "The reviewer asked for changes (their reasons are above).", next: "Edit the release, then submit it again: it goes back to review." };
    case "approved":
      return {
        now: "Approved: its delivery package is built.",
        next: `It is being delivered to the ${stores}${date ? `, to go live on ${date}` : ""}. You are notified when it is in distribution.`,
      };
    case "in_distribution":
      return release.tag === "published"
        ? {
            now: `Live in the ${stores}${date ? ` since ${date}` : ""}.`,
            next: "Streams and sales reach Income & Shares as the stores' statements are imported, usually one to three months later.",
          }
        : {
            now: `Delivered to the ${stores}${date ? `: it goes live on ${date}` : ""}.`,
            next: "Stores can take a few days to show it. Streams and sales reach Income & Shares as their statements are imported.",
          };
    case "takedown_requested":
      return { now: "A takedown is requested: every store is asked to remove it.", next: "It shows as taken down once the stores confirm." };
    case "taken_down":
      return { now: "Taken down: the stores were asked to remove it.", next: "Its past sales still reach your statements as they are imported." };
  }
}

function formatDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });
}

/** The release as submitted: what happens next, its tracks (with players), its stores and territories. */
function ReleaseOverview({ release }: { release: ReleaseDetail }) {
  const steps = nextSteps(release, release.stores.length);
  const storeNames = new Map<string, string>(STORES.map((s) => [s.code, s.name]));
  const territoryNames = new Map<string, string>(TERRITORIES.map((t) => [t.code, t.name]));
  const territories = release.territories.includes(WORLDWIDE) ? ["Worldwide"] : release.territories.map((t) => territoryNames.get(t) ?? t);
  return (
    <>
      <Section title="Where it stands" id="status">
        <p className="text-sm text-stone-800">{steps.now}</p>
        <h3 className="mt-3 text-sm font-semibold text-stone-900">What happens next</h3>
        <p className="mt-1 text-sm text-stone-700">{steps.next}</p>
      </Section>
      <Section title="Tracks" id="tracks">
        {release.tracks.length === 0 ? (
          <p className="text-sm text-stone-600">No tracks.</p>
        ) : (
          <ol aria-label="Tracks" className="divide-y divide-stone-200">
            {release.tracks.map((track) => (
              <li key={track.songId} className="space-y-2 py-3">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
                  <p className="min-w-0 font-medium break-words">
                    {track.position}. {track.title}
                    {track.version ? <span className="text-stone-500"> ({track.version})</span> : null}
                    {track.explicit ? <span className="ml-2 rounded bg-stone-800 px-1.5 py-0.5 align-middle text-[10px] font-bold text-white">E</span> : null}
                  </p>
                  <p className="text-xs text-stone-600 tabular-nums">
                    {formatDuration(track.durationSeconds)} · ISRC {track.isrc ?? "assigned at submission"}
                  </p>
                </div>
                {track.audio ? (
                  <AudioPlayer src={songAudioPath(track.songId)} label={`Listen to ${track.title}`} />
                ) : (
                  <p className="text-sm text-amber-800">No audio.</p>
                )}
              </li>
            ))}
          </ol>
        )}
      </Section>
      <Section title="Stores and territories" id="stores">
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-medium text-stone-600">Stores</dt>
          <dd className="text-stone-900">{release.stores.length ? release.stores.map((s) => storeNames.get(s) ?? s).join(", ") : "None chosen"}</dd>
          <dt className="font-medium text-stone-600">Territories</dt>
          <dd className="text-stone-900">{territories.length ? territories.join(", ") : "None chosen"}</dd>
          <dt className="font-medium text-stone-600">Release date</dt>
          <dd className="text-stone-900">{release.releaseDate ? formatDay(release.releaseDate) : "Not chosen"}</dd>
        </dl>
      </Section>
    </>
  );
}

export function MemberReleaseStatusPage({ loaderData }: { loaderData: MemberReleaseStatusData }) {
  const data = loaderData;
  const { release, actions, problems, history, coverUrl, profilePath } = data;
  const submit = useReleaseActionResult("submit");
  const takedown = useReleaseActionResult("takedown");
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div className="size-28 shrink-0 overflow-hidden rounded-md border border-stone-200 bg-stone-100">
          {coverUrl ? (
            <img src={coverUrl} alt={`Cover art of ${release.title}`} className="size-full object-cover" />
          ) : (
            <p className="flex size-full items-center justify-center text-xs text-stone-500">No cover</p>
          )}
        </div>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium text-stone-500">{release.artist.name}</p>
          <h1 className="mt-0.5 text-2xl font-semibold tracking-tight break-words">{release.title}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-stone-600">
            <ReleaseStatusTag status={release.status} />
            <span>{release.tracks.length} tracks</span>
            {release.releaseDate ? <span>Release date {release.releaseDate}</span> : null}
            {release.upc ? <span>UPC {release.upc}</span> : null}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to={data.releasePagePath} className={buttonSecondary}>
            Release page
          </Link>
          {actions.edit ? (
            <Link to={profilePath} className={buttonSecondary}>
              Edit release
            </Link>
          ) : null}
        </div>
      </header>
      <RejectionReasonsPanel reasons={release.status === "rejected" ? release.rejectionReasons : null} profilePath={profilePath} />
      <ReleaseOverview release={release} />
      {actions.submit ? (
        <Section title="Preflight and submission" id="submit">
          <SubmitPanel problems={problems} submit={submit} />
        </Section>
      ) : null}
      {actions.requestTakedown ? (
        <Section title="Take the release down" id="takedown" description="We ask every store to remove it. This cannot be undone from here.">
          <TakedownForm lastResult={takedown.result} />
        </Section>
      ) : null}
      <Section title="History" id="history">
        <StatusHistoryList history={history} />
      </Section>
    </div>
  );
}

export function AdminReleasesPage({ loaderData }: { loaderData: AdminReleasesData }) {
  const { query, list } = loaderData;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Releases</h1>
        <p className="mt-1 text-sm text-stone-600">Every release; filter by “Pending approval” for the review queue.</p>
      </div>
      <ReleaseListSection query={query} list={list} linkFor={(r) => `/admin/release-profile/${r.id}`} />
    </div>
  );
}

function RejectForm({ lastResult }: { lastResult: Result }) {
  const [form, fields] = useForm({
    id: "release-reject",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RejectSchema }),
    shouldValidate: "onSubmit",
  });
  const reasons = fields.reasons.getFieldset();
  return (
    <Form method="post" className="space-y-3" {...getFormProps(form)}>
      <FormAlert id={form.errorId} errors={form.errors} />
      <p className="text-sm text-stone-600">Write a reason beside each field that needs a change; leave the others empty.</p>
      <FieldErrors id={fields.reasons.errorId} errors={fields.reasons.errors} />
      <div className="grid gap-3 sm:grid-cols-2">
        {REVIEW_FIELDS.map(({ field, label }) => {
          const meta = reasons[field];
          return (
            <TextareaField
              key={field}
              label={`Reason: ${label}`}
              errors={meta.errors}
              errorId={meta.errorId}
              textareaProps={{ ...getTextareaProps(meta), rows: 2, maxLength: 1000 }}
            />
          );
        })}
      </div>
      <SubmitButton name="intent" value="reject" pendingLabel="Rejecting…" className={buttonDanger}>
        Reject with these reasons
      </SubmitButton>
    </Form>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium text-stone-500 uppercase">{label}</dt>
      <dd className="mt-0.5 text-sm break-words">{children || "–"}</dd>
    </div>
  );
}

export function AdminReleaseProfilePage({ loaderData }: { loaderData: AdminReleaseProfileData }) {
  const { release, actions, problems, history, coverUrl, ownerAreaPath, releasePagePath, deliveries, canBuildPackage, splits } = loaderData;
  const review = useReleaseActionResult("review");
  const takedown = useReleaseActionResult("takedown");
  const storeNames = new Map<string, string>(STORES.map((s) => [s.code, s.name]));
  return (
    <div className="mx-auto w-full max-w-5xl space-y-6">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div className="size-40 shrink-0 overflow-hidden rounded-md border border-stone-200 bg-stone-100">
          {coverUrl ? (
            <img src={coverUrl} alt={`Cover art of ${release.title}`} className="size-full object-cover" />
          ) : (
            <p className="flex size-full items-center justify-center text-xs text-stone-500">No cover art</p>
          )}
        </div>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium text-stone-500">Release review · {release.artist.name}</p>
          <h1 className="mt-0.5 text-2xl font-semibold tracking-tight break-words">{release.title}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-stone-600">
            <ReleaseStatusTag status={release.status} />
            {release.coverArtWidth ? (
              <span>
                Cover {release.coverArtWidth}x{release.coverArtHeight}
              </span>
            ) : null}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to={releasePagePath} className={buttonSecondary}>
            Release page
          </Link>
          <Link to={ownerAreaPath} className={buttonSecondary}>
            Open in the owner's editor
          </Link>
        </div>
      </header>
      <RejectionReasonsPanel reasons={release.rejectionReasons} />
      <Section title="Details" id="details">
        <dl className="grid gap-4 sm:grid-cols-3">
          <Detail label="Type">{RELEASE_TYPE_OPTIONS.find((t) => t.value === release.type)?.label}</Detail>
          <Detail label="UPC">{release.upc}</Detail>
          <Detail label="Label">{release.label}</Detail>
          <Detail label="℗ line">{release.pLine}</Detail>
          <Detail label="© line">{release.cLine}</Detail>
          <Detail label="Genre">{[release.primaryGenre, release.secondaryGenre].filter(Boolean).join(", ")}</Detail>
          <Detail label="Language">{release.language}</Detail>
          <Detail label="Release date">{release.releaseDate}</Detail>
          <Detail label="Re-release of">{release.previouslyReleased ? release.previousReleaseDate : "New release"}</Detail>
          <Detail label="Explicit">{release.parentalAdvisory ? "Yes" : "No"}</Detail>
          <Detail label="Stores">{release.stores.map((s) => storeNames.get(s) ?? s).join(", ")}</Detail>
          <Detail label="Territories">{release.territories.includes(WORLDWIDE) ? "Worldwide" : release.territories.join(", ")}</Detail>
        </dl>
      </Section>
      <Section title="Tracks" id="tracks">
        {release.tracks.length === 0 ? (
          <p className="text-sm text-stone-600">No tracks.</p>
        ) : (
          <ol className="divide-y divide-stone-200 rounded-md border border-stone-200" aria-label="Tracks">
            {release.tracks.map((t) => (
              <li key={t.songId} className="space-y-2 p-3">
                <p className="font-medium break-words">
                  {t.position}.{" "}
                  <Link to={`/admin/song-profile/${t.songId}`} className="underline-offset-2 hover:underline">
                    {t.title}
                  </Link>
                  {t.version ? <span className="text-stone-500"> ({t.version})</span> : null}
                  <span className="text-sm font-normal text-stone-500">
                    {" "}
                    · {formatDuration(t.durationSeconds)} · {t.isrc ?? "no ISRC yet"}
                    {t.explicit ? " · Explicit" : ""}
                    {t.isCover ? ` · Cover (${t.coverLicenceProvider ?? "no licence"})` : ""}
                  </span>
                </p>
                {t.audio ? (
                  <audio controls preload="none" src={songAudioPath(t.songId)} className="w-full max-w-md" aria-label={`Listen to ${t.title}`}>
                    <a href={songAudioPath(t.songId)}>Download {t.title}</a>
                  </audio>
                ) : (
                  <p className="text-sm text-red-700">No audio.</p>
                )}
                {t.audio ? (
                  <p className="text-xs text-stone-500">
                    {t.audio.format.toUpperCase()} · {t.audio.bitDepth}-bit · {t.audio.sampleRate / 1000} kHz ·{" "}
                    {t.audio.channels === 2 ? "stereo" : `${t.audio.channels} channels`}
                  </p>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </Section>
      <Section title="Splits" id="splits" description="Who shares each track's master royalties.">
        <ReleaseSplitsSummary tracks={release.tracks} summaries={splits} songPath={(id) => `/admin/song-profile/${id}`} />
      </Section>
      <Section title="Preflight" id="preflight">
        <PreflightList problems={problems} />
      </Section>
      {actions.approve || actions.reject || actions.startDistribution || actions.markTakenDown ? (
        <Section title="Review" id="review">
          <div className="space-y-6">
            {review.result?.error?.[""] && !actions.reject ? <FormAlert errors={review.result.error[""]} /> : null}
            {actions.approve ? (
              <Form method="post">
                <SubmitButton name="intent" value="approve" pendingLabel="Approving…" className={buttonPrimary}>
                  Approve release
                </SubmitButton>
              </Form>
            ) : null}
            {actions.reject ? <RejectForm lastResult={review.result} /> : null}
            {actions.startDistribution ? (
              <Form method="post">
                <SubmitButton name="intent" value="start-distribution" pendingLabel="Starting…" className={buttonPrimary}>
                  Start distribution
                </SubmitButton>
              </Form>
            ) : null}
            {actions.markTakenDown ? (
              <Form method="post">
                <SubmitButton name="intent" value="mark-taken-down" pendingLabel="Saving…" className={buttonDanger}>
                  Mark as taken down
                </SubmitButton>
              </Form>
            ) : null}
          </div>
        </Section>
      ) : null}
      {actions.requestTakedown ? (
        <Section title="Takedown" id="takedown">
          <TakedownForm lastResult={takedown.result} />
        </Section>
      ) : null}
      <Section
        title="Delivery packages"
        id="delivery"
        description="The DDEX ERN 4.3 message with the audio and the cover, as a store or aggregator ingests it."
      >
        <DeliveriesSection deliveries={deliveries} canBuild={canBuildPackage} />
      </Section>
      <Section title="History" id="history">
        <StatusHistoryList history={history} />
      </Section>
    </div>
  );
}
