import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import { useState } from "react";
import { CheckboxField, Field, FieldErrors, FormAlert, inputClass, SelectField, SubmitButton, TextareaField, useFormResetKey } from "~/components/forms";
import { UploadProgress, useProgressUpload } from "~/components/progress-upload";
import { ReleaseCoverForm } from "~/modules/catalog/releases/pages/release-cover-form";
import { ReleaseDetailsForm } from "~/modules/catalog/releases/pages/release-details-form";
import { ReleaseStatusTag, Section, useReleaseActionResult } from "~/modules/catalog/releases/pages/release-page-parts";
import { PreflightList, SubmitPanel } from "~/modules/catalog/releases/pages/release-review-panels";
import { ReleaseStoresForm } from "~/modules/catalog/releases/pages/release-stores-form";
import { ReleaseTracksEditor } from "~/modules/catalog/releases/pages/release-tracks-editor";
import { formatDuration, RELEASE_STATUS_LABELS, RELEASE_TYPE_OPTIONS } from "~/modules/catalog/releases/release-options";
import { ReleaseDetailsSchema } from "~/modules/catalog/releases/release-schemas";
import type { DistributionLoaderData } from "./distribution.server";
import { DISTRIBUTION_STEPS, distributionPath, previousStep, type DistributionStep } from "./distribution-steps";

/**
 * `digital-distribution/start`: the guided flow. Each step is its own page (the step is in the URL), so it
 * works without JavaScript, and each step's form saves the draft before moving on.
 */

const linkButton =
  "inline-flex items-center justify-center rounded-md border border-stone-300 bg-white px-3 py-2 text-sm font-medium text-stone-800 shadow-sm hover:bg-stone-50";
const primaryLink = "inline-flex items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800";

type StartData = Extract<DistributionLoaderData, { mode: "start" }>;
type ReleaseData = Extract<DistributionLoaderData, { mode: "release" }>;

/**
 * The seven steps. From 640 px they share the width in seven columns, each label under its number and wrapping
 * when it must (nothing is cut off at 1280 px or in between); on a phone the numbers alone make the row and the
 * current step is named above it (every label stays in the links' accessible names).
 */
function StepNav({ memberId, releaseId, current }: { memberId: number; releaseId: number | null; current: DistributionStep }) {
  const currentIndex = DISTRIBUTION_STEPS.findIndex((s) => s.key === current);
  return (
    <nav aria-label="Distribution steps">
      <p className="mb-2 text-sm font-medium text-stone-700 sm:hidden" aria-hidden="true">
        Step {currentIndex + 1} of {DISTRIBUTION_STEPS.length}: {DISTRIBUTION_STEPS[currentIndex]!.label}
      </p>
      <ol className="grid grid-cols-7 gap-1 text-sm">
        {DISTRIBUTION_STEPS.map((step, index) => {
          const isCurrent = step.key === current;
          // The artist is chosen once; the other steps are open once the draft exists.
          const reachable = releaseId !== null && step.key !== "artist";
          const label = (
            <>
              <span
                aria-hidden="true"
                className={`inline-flex size-7 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${
                  isCurrent ? "bg-brand-900 text-white" : index < currentIndex ? "bg-brand-100 text-brand-900" : "bg-stone-200 text-stone-700"
                }`}
              >
                {index + 1}
              </span>
              <span className="sr-only sm:not-sr-only sm:text-center sm:text-xs sm:leading-tight sm:break-words">{step.label}</span>
            </>
          );
          const box = "flex min-w-0 flex-col items-center gap-1 rounded-md px-1 py-1";
          return (
            <li key={step.key} className="min-w-0">
              {reachable && !isCurrent ? (
                <Link to={distributionPath(memberId, releaseId, step.key)} className={`${box} text-stone-700 hover:bg-stone-100`}>
                  {label}
                </Link>
              ) : (
                <span aria-current={isCurrent ? "step" : undefined} className={`${box} ${isCurrent ? "font-semibold text-stone-900" : "text-stone-500"}`}>
                  {label}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** Step 1 without a draft: the artist page, the title and the type; the rest comes in the next steps. */
function ArtistStep({ data }: { data: StartData }) {
  const { result } = useReleaseActionResult("details");
  const [form, fields] = useForm({
    id: "distribution-artist",
    lastResult: result,
    defaultValue: { type: "single", artistId: data.artists.length === 1 ? String(data.artists[0]!.id) : "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReleaseDetailsSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  if (data.artists.length === 0) {
    return (
      <Section title="Choose the artist">
        <p className="text-sm text-stone-700">
          A release comes out under an artist page you own or may edit, and you have none yet.{" "}
          <Link to={`/member/${data.memberId}/artists`} className="font-medium text-brand-900 underline">
            Find or create an artist page
          </Link>{" "}
          first.
        </p>
      </Section>
    );
  }
  return (
    <div className="space-y-6">
      <Section title="Choose the artist" description="Who the release comes out under, and what it is called. You can change the title later.">
        <Form method="post" className="space-y-5" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="create" />
          <input type="hidden" name="step" value="artist" />
          <FormAlert id={form.errorId} errors={form.errors} />
          <SelectField
            label="Artist page"
            errors={fields.artistId.errors}
            errorId={fields.artistId.errorId}
            selectProps={getSelectProps(fields.artistId)}
            options={[{ value: "", label: "Choose…" }, ...data.artists.map((a) => ({ value: a.id, label: a.name }))]}
          />
          <Field
            label="Release title"
            errors={fields.title.errors}
            errorId={fields.title.errorId}
            inputProps={{ ...getInputProps(fields.title, { type: "text" }), maxLength: 200, autoComplete: "off" }}
          />
          <SelectField
            label="Release type"
            errors={fields.type.errors}
            errorId={fields.type.errorId}
            selectProps={getSelectProps(fields.type)}
            options={RELEASE_TYPE_OPTIONS}
            help="Single: 1–3 tracks; EP: 4–6 under 30 minutes; Album: 7 or more, or over 30 minutes."
          />
          <SubmitButton pendingLabel="Saving…">Save and continue</SubmitButton>
        </Form>
      </Section>
      {data.drafts.length ? (
        <Section title="Or continue a draft">
          <ul className="divide-y divide-stone-200">
            {data.drafts.map((draft) => (
              <li key={draft.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0">
                  <span className="font-medium break-words">{draft.title}</span>
                  <span className="text-sm text-stone-600">
                    {" "}
                    · {draft.artist.name} · {draft.trackCount === 1 ? "1 track" : `${draft.trackCount} tracks`}
                  </span>
                </span>
                <Link to={distributionPath(data.memberId, draft.id, "details")} className={linkButton}>
                  Continue<span className="sr-only"> “{draft.title}”</span>
                </Link>
              </li>
            ))}
          </ul>
          {data.draftTotal > data.drafts.length ? (
            <p className="mt-3 text-sm">
              <Link to={`/member/${data.memberId}/releases?status=draft`} className="font-medium text-brand-900 underline">
                All {data.draftTotal} drafts
              </Link>
            </p>
          ) : null}
        </Section>
      ) : null}
    </div>
  );
}

/** What a track still needs before it can be delivered, with the link to its song page. */
function TrackAudioList({ data }: { data: ReleaseData }) {
  const { release, memberId } = data;
  if (!release.tracks.length) return null;
  return (
    <ul className="divide-y divide-stone-200 text-sm">
      {release.tracks.map((track) => (
        <li key={track.songId} className="flex flex-wrap items-center justify-between gap-2 py-2">
          <span className="min-w-0">
            <span className="font-medium break-words">
              {track.position}. {track.title}
              {track.version ? ` (${track.version})` : ""}
            </span>{" "}
            <span className="text-stone-600">
              {track.audio
                ? `${track.audio.format.toUpperCase()} · ${track.audio.bitDepth}-bit / ${(track.audio.sampleRate / 1000).toLocaleString("en-US")} kHz · ${formatDuration(track.durationSeconds)}`
                : "No audio yet"}
            </span>
          </span>
          <Link to={`/member/${memberId}/song-profile/${track.songId}#audio`} className={linkButton}>
            {track.audio ? "Song details" : "Upload audio"}
            <span className="sr-only"> for “{track.title}”</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * A new track made here (new-track.server.ts): title, version, the ISRC or "assign one", explicit, writers and the
 * audio file, in one multipart form. With JavaScript it uploads with a progress bar; without, it posts as it is.
 */
function NewTrackForm({ action, progressAction }: { action: string; progressAction: string }) {
  const { result: posted } = useReleaseActionResult("new-track");
  const upload = useProgressUpload();
  const [form, fields] = useForm<{ title: string; version: string; isrcChoice: string; isrc: string; writers: string; explicit: string; audio: string }>({
    id: "new-track",
    lastResult: upload.result ?? posted,
    defaultValue: { isrcChoice: "assign" },
    shouldValidate: "onSubmit",
  });
  const [choice, setChoice] = useState<string | null>(null);
  const isrcChoice = choice ?? (fields.isrcChoice.value as string | undefined) ?? "assign";
  const sending = upload.percent !== null;
  const formProps = getFormProps(form);
  return (
    <form
      {...formProps}
      method="post"
      action={action}
      data-progress-action={progressAction}
      encType="multipart/form-data"
      onSubmit={(event) => {
        formProps.onSubmit?.(event);
        upload.onSubmit(event);
      }}
      className="space-y-4"
    >
      <input type="hidden" name="step" value="tracks" />
      <FormAlert id={form.errorId} errors={upload.failure ? [upload.failure] : form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Title"
          errors={fields.title.errors}
          errorId={fields.title.errorId}
          inputProps={{ ...getInputProps(fields.title, { type: "text" }), maxLength: 200, autoComplete: "off" }}
        />
        <Field
          label="Version (optional)"
          errors={fields.version.errors}
          errorId={fields.version.errorId}
          help="Radio Edit, Acoustic, Remix…"
          inputProps={{ ...getInputProps(fields.version, { type: "text" }), maxLength: 100, autoComplete: "off" }}
        />
      </div>
      <fieldset aria-describedby={fields.isrcChoice.errors?.length ? fields.isrcChoice.errorId : undefined}>
        <legend className="text-sm font-medium text-stone-800">ISRC (the recording&rsquo;s code)</legend>
        <div className="mt-2 space-y-2">
          {(
            [
              ["assign", "Assign one for me (free, when the release is submitted)"],
              ["have", "I have one"],
            ] as const
          ).map(([value, label]) => (
            <div key={value} className="flex items-start gap-2">
              <input
                {...getInputProps(fields.isrcChoice, { type: "radio", value })}
                id={`new-track-isrc-${value}`}
                onChange={(e) => setChoice(e.currentTarget.value)}
                className="mt-0.5 size-4 accent-brand-800"
              />
              <label htmlFor={`new-track-isrc-${value}`} className="text-sm text-stone-800">
                {label}
              </label>
            </div>
          ))}
        </div>
        <FieldErrors id={fields.isrcChoice.errorId} errors={fields.isrcChoice.errors} />
      </fieldset>
      {/* Without JavaScript both stay shown: the field is read only with "I have one". */}
      <div className={isrcChoice === "assign" && choice !== null ? "hidden" : undefined}>
        <Field
          label="ISRC"
          errors={fields.isrc.errors}
          errorId={fields.isrc.errorId}
          help="Like US-S1Z-99-00001: only if you chose “I have one”."
          inputProps={{ ...getInputProps(fields.isrc, { type: "text" }), maxLength: 15, autoComplete: "off", spellCheck: false }}
        />
      </div>
      <TextareaField
        label="Written by (optional)"
        errors={fields.writers.errors}
        errorId={fields.writers.errorId}
        help="The songwriters, separated by commas: they share equally. Change the shares and add IPI numbers on the song's page."
        textareaProps={{ ...getTextareaProps(fields.writers), rows: 2, maxLength: 1000 }}
      />
      <CheckboxField
        label="Explicit lyrics"
        errors={fields.explicit.errors}
        errorId={fields.explicit.errorId}
        inputProps={getInputProps(fields.explicit, { type: "checkbox" })}
      />
      <div>
        <label htmlFor="new-track-audio" className="block text-sm font-medium text-stone-800">
          Audio (WAV or FLAC)
        </label>
        <input
          id="new-track-audio"
          type="file"
          name="audio"
          accept=".wav,.flac,audio/wav,audio/x-wav,audio/flac"
          aria-invalid={fields.audio.errors?.length ? true : undefined}
          aria-describedby={fields.audio.errors?.length ? `${fields.audio.errorId} new-track-audio-help` : "new-track-audio-help"}
          className={`${inputClass} file:mr-3 file:rounded file:border-0 file:bg-stone-100 file:px-2 file:py-1`}
        />
        <p id="new-track-audio-help" className="mt-1 text-xs text-stone-500">
          At least 16-bit / 44.1 kHz, up to 250 MB. You can add it later, before you submit.
        </p>
        <FieldErrors id={fields.audio.errorId} errors={fields.audio.errors} />
      </div>
      <UploadProgress percent={upload.percent} label="Uploading the track's audio" />
      <button
        type="submit"
        name="intent"
        value="new-track"
        disabled={sending}
        className="inline-flex items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60"
      >
        {sending ? "Adding…" : "Add the new track"}
      </button>
    </form>
  );
}

function ReleaseStep({ data }: { data: ReleaseData }) {
  const details = useReleaseActionResult("details");
  const tracks = useReleaseActionResult("tracks");
  const cover = useReleaseActionResult("cover");
  const stores = useReleaseActionResult("stores");
  const submit = useReleaseActionResult("submit");
  const { release, memberId, step, version } = data;
  const here = distributionPath(memberId, release.id, step);
  const back = previousStep(step);
  const blocking = data.problems.filter((p) => p.blocking);
  // A fresh (empty) new-track form after each track made, never after a refusal.
  const newTrackKey = useFormResetKey("new-track");

  if (!data.actions.edit) {
    return (
      <Section title="This release is no longer a draft">
        <p className="text-sm text-stone-700">
          “{release.title}” is {RELEASE_STATUS_LABELS[release.status].toLowerCase()}: it can no longer be changed here.
        </p>
        <p className="mt-3">
          <Link to={data.statusPath} className={primaryLink}>
            See its status
          </Link>
        </p>
      </Section>
    );
  }

  const backLink =
    back && back !== "artist" ? (
      <Link to={distributionPath(memberId, release.id, back)} className={linkButton}>
        Back
      </Link>
    ) : null;

  switch (step) {
    case "artist":
    case "details":
      return (
        <Section title="Release details" id="details" description="Saved as a draft when you continue.">
          <ReleaseDetailsForm
            key={`d-${version}`}
            release={release}
            options={data.options!}
            action={here}
            step="details"
            lastResult={details.result}
            submitLabel="Save and continue"
          />
        </Section>
      );
    case "tracks":
      return (
        <div className="space-y-6">
          <Section title="Tracks" id="tracks" description="Add the artist's songs in the order they play. A song may be on more than one release.">
            <ReleaseTracksEditor
              key={`t-${version}-${release.tracks.length}`}
              release={release}
              songs={data.songs}
              action={here}
              step="tracks"
              lastResult={tracks.result}
              songPath={(id) => `/member/${memberId}/song-profile/${id}`}
            />
          </Section>
          <Section
            title="New track"
            id="add-new-track"
            description="A song that is not there yet: make it here, with its audio. It is added at the end of the release."
          >
            <NewTrackForm
              key={newTrackKey}
              action={`${here}&upload=track`}
              progressAction={`/member/${memberId}/digital-distribution/new-track?release=${release.id}`}
            />
          </Section>
          <Section title="Audio" id="audio" description="Each track needs its WAV or FLAC file, at least 16-bit / 44.1 kHz.">
            {release.tracks.length ? <TrackAudioList data={data} /> : <p className="text-sm text-stone-600">Add a track first.</p>}
          </Section>
          <StepButtons
            back={backLink}
            next={
              <Link to={distributionPath(memberId, release.id, "cover")} className={primaryLink}>
                Continue
              </Link>
            }
          />
        </div>
      );
    case "cover":
      return (
        <div className="space-y-6">
          <Section title="Cover art" id="cover" description="A square RGB JPEG or PNG, at least 1400x1400 pixels; 3000x3000 is what stores recommend.">
            <ReleaseCoverForm key={`c-${version}`} release={release} coverUrl={data.coverUrl} action={here} step="cover" lastResult={cover.result} />
          </Section>
          <StepButtons
            back={backLink}
            next={
              release.coverArtPath ? (
                <Link to={distributionPath(memberId, release.id, "stores")} className={primaryLink}>
                  Continue
                </Link>
              ) : null
            }
          />
        </div>
      );
    case "stores":
      return (
        <div className="space-y-6">
          <Section title="Stores and territories" id="stores">
            <ReleaseStoresForm key={`s-${version}`} release={release} action={here} step="stores" lastResult={stores.result} submitLabel="Save and continue" />
          </Section>
          <StepButtons back={backLink} next={null} />
        </div>
      );
    case "preflight":
      return (
        <div className="space-y-6">
          <Section title="Preflight" id="preflight" description="Everything the stores check, checked now. Each problem links to where you fix it.">
            <PreflightList problems={data.problems} />
          </Section>
          <StepButtons
            back={backLink}
            next={
              <Link to={distributionPath(memberId, release.id, "submit")} className={primaryLink}>
                {blocking.length ? "Continue anyway" : "Continue"}
              </Link>
            }
          />
        </div>
      );
    case "submit":
      return (
        <div className="space-y-6">
          <Section title="Submit for review" id="submit">
            <dl className="mb-4 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
              <dt className="text-stone-500">Artist</dt>
              <dd>{release.artist.name}</dd>
              <dt className="text-stone-500">Title</dt>
              <dd className="break-words">{release.title}</dd>
              <dt className="text-stone-500">Type</dt>
              <dd>{RELEASE_TYPE_OPTIONS.find((o) => o.value === release.type)?.label}</dd>
              <dt className="text-stone-500">Tracks</dt>
              <dd>{release.tracks.length}</dd>
              <dt className="text-stone-500">Release date</dt>
              <dd>{release.releaseDate ?? "Not chosen"}</dd>
            </dl>
            <SubmitPanel action={here} step="submit" problems={blocking} submit={submit} title="Still to fix" />
          </Section>
          <StepButtons back={backLink} next={null} />
        </div>
      );
  }
}

function StepButtons({ back, next }: { back: React.ReactNode; next: React.ReactNode }) {
  if (!back && !next) return null;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      {back ?? <span />}
      {next}
    </div>
  );
}

export function DistributionStartPage({ loaderData }: { loaderData: DistributionLoaderData }) {
  const data = loaderData;
  const releaseId = data.mode === "release" ? data.release.id : null;
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6">
      <header className="space-y-1">
        <p className="text-sm font-medium text-stone-500">Release Music</p>
        <h1 className="text-2xl font-semibold tracking-tight break-words">{data.mode === "release" ? data.release.title : "Distribute a release"}</h1>
        {data.mode === "release" ? (
          <p className="flex flex-wrap items-center gap-2 text-sm text-stone-600">
            <ReleaseStatusTag status={data.release.status} />
            <span>{data.release.artist.name}</span>
            {/* Only a release the flow still edits is a draft being saved. */}
            {data.actions.edit ? (
              <>
                <span aria-hidden="true">·</span>
                <span>Your draft is saved at every step.</span>
              </>
            ) : null}
          </p>
        ) : null}
      </header>
      <StepNav memberId={data.memberId} releaseId={releaseId} current={data.step} />
      {data.mode === "start" ? <ArtistStep data={data} /> : <ReleaseStep data={data} />}
    </div>
  );
}
