import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useActionData, useLocation, useParams } from "react-router";
import { CheckboxField, Field, FieldErrors, FormAlert, inputClass, SelectField, SubmitButton, TextareaField } from "~/components/forms";
import { ListEmptyState } from "~/components/list-empty-state";
import { Pagination } from "~/components/pagination";
import { StatusTag } from "~/components/status-tag";
import { formatDuration, RELEASE_STATUS_LABELS } from "~/modules/catalog/releases/release-options";
import { Section } from "~/modules/catalog/releases/pages/release-page-parts";
import type { SongActionData, SongForm, SongProfileData, SongsData } from "./song-routes.server";
import { CreditInviteSchema, SongDetailsSchema, WritersSchema } from "./song-schemas";
import { SplitSection } from "~/modules/splits/split-section";

const SPLITS_DESCRIPTION =
  "Who shares the master royalties, from which date. Every party sees the whole sheet; a pending party's share is held until they answer.";

/**
 * The song pages (member and admin): the list, and the song profile with its details, writers and audio.
 * Every form is a plain POST that works without JavaScript; the section ids (`isrc`, `explicit`,
 * `cover-licence`, `writers`, `audio`) are where the release preflight's fix links point.
 */

type Result = SubmissionResult<string[]> | undefined;

function useSongActionResult(form: SongForm): Result {
  const actionData = useActionData() as SongActionData | undefined;
  return actionData?.form === form ? actionData.result : undefined;
}

const buttonSecondary =
  "inline-flex items-center justify-center rounded-md border border-stone-300 bg-white px-3 py-2 text-sm font-medium text-stone-800 shadow-sm hover:bg-stone-50";

/* ------------------------------------------------------------------ the list */

export function SongsPage({ loaderData }: { loaderData: SongsData }) {
  const { list, query, newPath, area } = loaderData;
  const location = useLocation();
  return (
    <div className="mx-auto w-full max-w-5xl space-y-6">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Songs</h1>
        {newPath ? (
          <Link
            to={newPath}
            className="inline-flex items-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800"
          >
            New song
          </Link>
        ) : null}
      </header>
      <Form
        method="get"
        role="search"
        aria-label="Search songs"
        key={location.search}
        className="flex flex-wrap items-end gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm"
      >
        <div className="min-w-0 flex-1">
          <label htmlFor="song-search" className="block text-sm font-medium text-stone-800">
            Search by title, artist or ISRC
          </label>
          <input id="song-search" type="search" name="q" defaultValue={query.q} maxLength={100} className={inputClass} />
        </div>
        <button type="submit" className={buttonSecondary}>
          Search
        </button>
      </Form>
      {list.rows.length === 0 ? (
        <div className="rounded-lg border border-stone-200 bg-white p-6 text-center shadow-sm">
          <ListEmptyState
            total={list.total}
            pageCount={list.pageCount}
            filtered={Boolean(query.q)}
            noMatch="No songs match this search."
            noMatchHint="Try another title"
            empty="No songs yet."
            emptyHint={area === "admin" ? undefined : "Start one with “New song”."}
            clearLabel="clear the search"
          />
        </div>
      ) : (
        <ul className="divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white shadow-sm" aria-label="Songs">
          {list.rows.map((song) => (
            <li key={song.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0">
                <Link to={song.profilePath} className="font-medium text-brand-900 hover:underline">
                  {song.title}
                  {song.version ? ` (${song.version})` : ""}
                </Link>
                <p className="text-sm text-stone-600">
                  {song.artist.name} · {formatDuration(song.durationSeconds)} · {song.isrc ?? "ISRC assigned at submission"}
                  {song.explicit ? " · Explicit" : ""}
                  {song.isCover ? " · Cover" : ""}
                </p>
              </div>
              <p className="flex flex-wrap gap-2 text-xs">
                <StatusTag status={song.hasAudio ? "approved" : "pending"} label={song.hasAudio ? "Audio" : "No audio"} />
                <StatusTag
                  status={song.writerCount ? "approved" : "pending"}
                  label={song.writerCount ? `${song.writerCount} writer${song.writerCount === 1 ? "" : "s"}` : "No writers"}
                />
                <span className="text-stone-600">{song.releaseCount === 1 ? "On 1 release" : `On ${song.releaseCount} releases`}</span>
              </p>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={list.page} pageCount={list.pageCount} total={list.total} pageSize={list.pageSize} noun={["song", "songs"]} label="Song list pages" />
    </div>
  );
}

/* ------------------------------------------------------------------ the song profile */

type Options = { language: Array<{ id: number; name: string }>; pro?: Array<{ id: number; name: string }> };
type EditData = Extract<SongProfileData, { mode: "edit" }>;

function SongDetailsForm({
  song,
  artists,
  artistId,
  options,
  lastResult,
  disabled,
}: {
  song?: EditData["song"];
  artists?: Array<{ id: number; name: string }>;
  artistId?: number | null;
  options: Options;
  lastResult: Result;
  disabled?: boolean;
}) {
  const [form, fields] = useForm({
    id: "song-details",
    lastResult,
    defaultValue: song
      ? {
          title: song.title,
          version: song.version,
          isrc: song.isrc ?? "",
          iswc: song.iswc ?? "",
          explicit: song.explicit ? "on" : undefined,
          languageId: song.languageId ? String(song.languageId) : "",
          lyrics: song.lyrics,
          isCover: song.isCover ? "on" : undefined,
          coverLicenceProvider: song.coverLicenceProvider ?? "",
          coverLicenceId: song.coverLicenceId ?? "",
          coverOriginalWriters: song.coverOriginalWriters ?? "",
        }
      : { artistId: artistId ? String(artistId) : artists?.length === 1 ? String(artists[0]!.id) : "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SongDetailsSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const languages = [{ value: "", label: "Choose…" }, ...options.language.map((l) => ({ value: l.id, label: l.name }))];
  return (
    <Form method="post" className="space-y-5" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={song ? "details" : "create"} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <fieldset disabled={disabled} className="space-y-5">
        {!song ? (
          <SelectField
            label="Artist page"
            errors={fields.artistId.errors}
            errorId={fields.artistId.errorId}
            selectProps={getSelectProps(fields.artistId)}
            options={[{ value: "", label: "Choose…" }, ...(artists ?? []).map((a) => ({ value: a.id, label: a.name }))]}
          />
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Title"
            errors={fields.title.errors}
            errorId={fields.title.errorId}
            inputProps={{ ...getInputProps(fields.title, { type: "text" }), maxLength: 200 }}
          />
          <Field
            label="Version (optional)"
            help="Radio Edit, Live, Acoustic… Empty for the original."
            errors={fields.version.errors}
            errorId={fields.version.errorId}
            inputProps={{ ...getInputProps(fields.version, { type: "text" }), maxLength: 100 }}
          />
        </div>
        <div id="isrc" className="grid scroll-mt-20 gap-4 sm:grid-cols-2">
          <Field
            label="ISRC (optional)"
            help="Like USBL12600001. Without one, we assign one from our range when the release is submitted."
            errors={fields.isrc.errors}
            errorId={fields.isrc.errorId}
            inputProps={{ ...getInputProps(fields.isrc, { type: "text" }), maxLength: 20, autoCapitalize: "characters", spellCheck: false }}
          />
          <Field
            label="ISWC (optional)"
            help="The composition's code, like T-345.246.800-3."
            errors={fields.iswc.errors}
            errorId={fields.iswc.errorId}
            inputProps={{ ...getInputProps(fields.iswc, { type: "text" }), maxLength: 20, spellCheck: false }}
          />
        </div>
        <SelectField
          label="Language"
          errors={fields.languageId.errors}
          errorId={fields.languageId.errorId}
          selectProps={getSelectProps(fields.languageId)}
          options={languages}
        />
        <div id="explicit" className="scroll-mt-20">
          <CheckboxField label="Explicit lyrics" inputProps={getInputProps(fields.explicit, { type: "checkbox" })} />
        </div>
        <TextareaField
          label="Lyrics (optional)"
          errors={fields.lyrics.errors}
          errorId={fields.lyrics.errorId}
          textareaProps={{ ...getTextareaProps(fields.lyrics), rows: 5, maxLength: 20000 }}
        />
        <fieldset id="cover-licence" className="scroll-mt-20 space-y-3 rounded-md border border-stone-200 p-3">
          <legend className="px-1 text-sm font-medium text-stone-800">Original or cover</legend>
          <CheckboxField label="This is a cover of someone else's song" inputProps={getInputProps(fields.isCover, { type: "checkbox" })} />
          <p className="text-xs text-stone-500">
            A cover needs its mechanical licence before it is released: who issued it, its number and the original writers.
          </p>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label="Licence provider"
              errors={fields.coverLicenceProvider.errors}
              errorId={fields.coverLicenceProvider.errorId}
              inputProps={{ ...getInputProps(fields.coverLicenceProvider, { type: "text" }), maxLength: 200 }}
            />
            <Field
              label="Licence id"
              errors={fields.coverLicenceId.errors}
              errorId={fields.coverLicenceId.errorId}
              inputProps={{ ...getInputProps(fields.coverLicenceId, { type: "text" }), maxLength: 100 }}
            />
          </div>
          <Field
            label="Original writers"
            errors={fields.coverOriginalWriters.errors}
            errorId={fields.coverOriginalWriters.errorId}
            inputProps={{ ...getInputProps(fields.coverOriginalWriters, { type: "text" }), maxLength: 500 }}
          />
        </fieldset>
        <div className="flex justify-end">
          <SubmitButton pendingLabel="Saving…">{song ? "Save details" : "Create song"}</SubmitButton>
        </div>
      </fieldset>
    </Form>
  );
}

/** Spare blank rows after the writers, so a writer can be added without JavaScript. */
const SPARE_WRITER_ROWS = 2;

function WritersForm({ song, options, lastResult, disabled }: { song: EditData["song"]; options: Options; lastResult: Result; disabled: boolean }) {
  const rows = [
    ...song.writers.map((w) => ({ name: w.name, share: String(w.shareBps / 100), proId: w.pro?.id, ipi: w.ipi ?? "" })),
    ...Array.from({ length: SPARE_WRITER_ROWS }, () => ({ name: "", share: "", proId: undefined, ipi: "" })),
  ];
  const [form, fields] = useForm<{ writers: Array<{ name: string; share: string; proId?: number; ipi?: string }> }>({
    id: "song-writers",
    lastResult,
    defaultValue: { writers: rows },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: WritersSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const pros = [{ value: "", label: "None / unknown" }, ...(options.pro ?? []).map((p) => ({ value: p.id, label: p.name }))];
  const list = fields.writers.getFieldList();
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="writers" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <FieldErrors id={fields.writers.errorId} errors={fields.writers.errors} />
      <fieldset disabled={disabled}>
        <legend className="sr-only">Writers</legend>
        <ol className="space-y-3">
          {list.map((row, index) => {
            const writer = row.getFieldset();
            return (
              <li
                key={row.key}
                className="grid gap-3 rounded-md border border-stone-200 bg-stone-50/60 p-3 sm:grid-cols-[minmax(0,2fr)_6rem_minmax(0,1.5fr)_minmax(0,1fr)]"
              >
                <Field
                  label={`Writer ${index + 1}`}
                  errors={writer.name.errors}
                  errorId={writer.name.errorId}
                  inputProps={{ ...getInputProps(writer.name, { type: "text" }), maxLength: 200 }}
                />
                <Field
                  label="Share %"
                  errors={writer.share.errors}
                  errorId={writer.share.errorId}
                  inputProps={{ ...getInputProps(writer.share, { type: "text" }), inputMode: "decimal", maxLength: 6 }}
                />
                <SelectField
                  label="PRO"
                  errors={writer.proId.errors}
                  errorId={writer.proId.errorId}
                  selectProps={getSelectProps(writer.proId)}
                  options={pros}
                />
                <Field
                  label="IPI (optional)"
                  errors={writer.ipi.errors}
                  errorId={writer.ipi.errorId}
                  inputProps={{ ...getInputProps(writer.ipi, { type: "text" }), inputMode: "numeric", maxLength: 15 }}
                />
              </li>
            );
          })}
        </ol>
        <p className="mt-2 text-xs text-stone-500">The shares must total exactly 100%. Leave a row empty to remove that writer; save to get more empty rows.</p>
        <div className="mt-3 flex justify-end">
          <SubmitButton pendingLabel="Saving…">Save writers</SubmitButton>
        </div>
      </fieldset>
    </Form>
  );
}

function AudioForm({ data, lastResult }: { data: EditData; lastResult: Result }) {
  const { song, audioUrl, locked } = data;
  const [form, fields] = useForm({ id: "song-audio", lastResult });
  return (
    <div className="space-y-4">
      {song.audio ? (
        <p className="text-sm text-stone-700">
          {song.audio.format.toUpperCase()} · {song.audio.bitDepth}-bit / {(song.audio.sampleRate / 1000).toLocaleString("en-US")} kHz ·{" "}
          {song.audio.channels === 1 ? "mono" : song.audio.channels === 2 ? "stereo" : `${song.audio.channels} channels`} ·{" "}
          {formatDuration(song.durationSeconds)}
          {!audioUrl ? " (demo properties: no file is stored)" : ""}
        </p>
      ) : (
        <p className="text-sm text-stone-700">No audio yet.</p>
      )}
      {audioUrl ? <audio controls preload="none" src={audioUrl} className="w-full" aria-label={`Listen to ${song.title}`} /> : null}
      {!locked ? (
        <Form method="post" action="?upload=audio" encType="multipart/form-data" className="space-y-3" {...getFormProps(form)}>
          <FormAlert id={form.errorId} errors={form.errors} />
          <div>
            <label htmlFor="field-audio" className="block text-sm font-medium text-stone-800">
              {song.audio ? "Replace the audio" : "Audio file"}
            </label>
            <input
              id="field-audio"
              type="file"
              name="audio"
              accept=".wav,.flac,audio/wav,audio/x-wav,audio/flac"
              aria-invalid={fields.audio.errors?.length ? true : undefined}
              aria-describedby={fields.audio.errors?.length ? fields.audio.errorId : "field-audio-help"}
              className="mt-1 block w-full text-sm"
            />
            <p id="field-audio-help" className="mt-1 text-xs text-stone-500">
              WAV or FLAC, at least 16-bit / 44.1 kHz, up to 250 MB.
            </p>
            <FieldErrors id={fields.audio.errorId} errors={fields.audio.errors} />
          </div>
          <SubmitButton pendingLabel="Uploading…">Upload audio</SubmitButton>
        </Form>
      ) : null}
    </div>
  );
}

const CREDIT_STATUS_LABELS = { pending: "Invited", accepted: "Verified", declined: "Declined", revoked: "Withdrawn" } as const;

/** The credited member's name; an invited member's name with the address it went to; else the address. */
function creditName(credit: EditData["song"]["credits"][number]) {
  const member = credit.user ?? credit.invitee;
  if (!member) return credit.email;
  const name = `${member.name} ${member.lastName}`.trim();
  return credit.user ? (
    name
  ) : (
    <>
      {name} <span className="text-stone-500">({credit.email})</span>
    </>
  );
}

function CreditsSection({ song, lastResult }: { song: EditData["song"]; lastResult: Result }) {
  const [form, fields] = useForm({
    id: "song-credits",
    lastResult,
    defaultValue: { role: "producer" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreditInviteSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const live = song.credits.filter((c) => c.status === "pending" || c.status === "accepted");
  return (
    <div className="space-y-4">
      {song.credits.length ? (
        <ul className="divide-y divide-stone-200 text-sm" aria-label="Credits">
          {song.credits.map((credit) => (
            <li key={credit.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span className="min-w-0 break-words">
                {creditName(credit)} · {credit.role === "producer" ? "Producer" : "Featured artist"}
              </span>
              <span className="flex items-center gap-2">
                <StatusTag
                  status={credit.status === "accepted" ? "approved" : credit.status === "pending" ? "pending" : "inactive"}
                  label={CREDIT_STATUS_LABELS[credit.status]}
                />
                {live.includes(credit) ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="credit-revoke" />
                    <input type="hidden" name="creditId" value={credit.id} />
                    <button
                      type="submit"
                      className="rounded-md border border-stone-300 bg-white px-2 py-1 text-xs font-medium text-stone-700 hover:bg-stone-50"
                    >
                      Withdraw<span className="sr-only"> the credit of {credit.email}</span>
                    </button>
                  </Form>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-stone-600">No credits yet.</p>
      )}
      <Form method="post" className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto] sm:items-end" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="credit-invite" />
        <div className="sm:col-span-3">
          <FormAlert id={form.errorId} errors={form.errors} />
        </div>
        <Field
          label="Invite by email"
          errors={fields.email.errors}
          errorId={fields.email.errorId}
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off", maxLength: 254 }}
        />
        <SelectField
          label="As"
          errors={fields.role.errors}
          errorId={fields.role.errorId}
          selectProps={getSelectProps(fields.role)}
          options={[
            { value: "producer", label: "Producer" },
            { value: "featured_artist", label: "Featured artist" },
          ]}
        />
        <SubmitButton pendingLabel="Inviting…">Send invitation</SubmitButton>
      </Form>
    </div>
  );
}

export function SongProfilePage({ loaderData }: { loaderData: SongProfileData }) {
  const data = loaderData;
  const { memberId } = useParams();
  const details = useSongActionResult("details");
  const writers = useSongActionResult("writers");
  const audio = useSongActionResult("audio");
  const credits = useSongActionResult("credits");
  const splits = useSongActionResult("splits");
  if (data.mode === "party") {
    const { song } = data;
    return (
      <div className="mx-auto w-full max-w-4xl space-y-6">
        <header>
          <p className="text-sm font-medium text-stone-500">Song · {song.artist.name}</p>
          <h1 className="mt-0.5 text-2xl font-semibold tracking-tight break-words">
            {song.title}
            {song.version ? <span className="font-normal text-stone-600"> ({song.version})</span> : null}
          </h1>
          <p className="mt-1 text-sm text-stone-600">
            {song.isrc ?? "ISRC assigned at submission"} · {formatDuration(song.durationSeconds)}
          </p>
        </header>
        <Section title="Splits" id="splits" description={SPLITS_DESCRIPTION}>
          <SplitSection splits={data.splits} lastResult={splits} />
        </Section>
      </div>
    );
  }
  if (data.mode === "new") {
    return (
      <div className="mx-auto w-full max-w-4xl space-y-6">
        <header>
          <p className="text-sm font-medium text-stone-500">Song</p>
          <h1 className="text-2xl font-semibold tracking-tight">New song</h1>
        </header>
        {data.artists.length === 0 ? (
          <p className="rounded-md border border-stone-200 bg-white p-4 text-sm text-stone-700">
            You need an artist page first: a song belongs to an artist page you own or may edit.
          </p>
        ) : (
          <Section title="Details" id="details">
            <SongDetailsForm artists={data.artists} artistId={data.artistId} options={data.options} lastResult={details} />
          </Section>
        )}
      </div>
    );
  }
  const { song, options, locked, releases, version } = data;
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6">
      <header>
        <p className="text-sm font-medium text-stone-500">Song · {song.artist.name}</p>
        <h1 className="mt-0.5 text-2xl font-semibold tracking-tight break-words">
          {song.title}
          {song.version ? <span className="font-normal text-stone-600"> ({song.version})</span> : null}
        </h1>
        <p className="mt-1 text-sm text-stone-600">
          {song.isrc ?? "ISRC assigned at submission"} · {formatDuration(song.durationSeconds)}
        </p>
        {/* Post-production jobs (decision 023): the member area's way to send this song to an engineer. */}
        {memberId && !locked ? (
          <p className="mt-2 text-sm">
            <Link to={`/member/${memberId}/post-production-jobs?song=${song.id}`} className="font-medium text-brand-800 underline">
              Send to post-production
            </Link>
          </p>
        ) : null}
      </header>
      {locked ? (
        <p className="rounded-md border border-stone-200 bg-stone-50 p-4 text-sm text-stone-700">
          This song is on a release under review or in distribution: it can no longer be changed.
        </p>
      ) : null}
      <Section title="Details" id="details">
        <SongDetailsForm key={`d-${version}`} song={song} options={options} lastResult={details} disabled={locked} />
      </Section>
      <Section title="Writers" id="writers" description="Who wrote the composition, their share, PRO and IPI.">
        <WritersForm key={`w-${version}`} song={song} options={options} lastResult={writers} disabled={locked} />
      </Section>
      <Section title="Audio" id="audio">
        <AudioForm key={`a-${version}`} data={data} lastResult={audio} />
      </Section>
      <Section title="Credits" id="credits" description="Producers and featured artists, invited by email; a credit is verified once they accept.">
        <CreditsSection song={song} lastResult={credits} />
        {data.hired.length ? (
          <div className="mt-4">
            <h3 className="text-sm font-semibold text-stone-800">Hired through Backline</h3>
            <ul aria-label="Credits from completed projects" className="mt-1 divide-y divide-stone-200 text-sm">
              {data.hired.map((c) => (
                <li key={c.projectId} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span>
                    {c.providerName} · {c.service}
                  </span>
                  <StatusTag status="approved" label={`Verified: project #${c.projectId}`} />
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </Section>
      <Section title="Splits" id="splits" description={SPLITS_DESCRIPTION}>
        <SplitSection splits={data.splits} lastResult={splits} />
      </Section>
      <Section title="Releases" id="releases">
        {releases.length ? (
          <ul className="divide-y divide-stone-200 text-sm">
            {releases.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <Link to={r.href} className="font-medium text-brand-900 hover:underline">
                  {r.title}
                </Link>
                <span className="text-stone-600">
                  Track {r.position} · {RELEASE_STATUS_LABELS[r.status]} ·{" "}
                  <Link to={r.pageHref} className="underline">
                    Release page
                  </Link>
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-stone-600">Not on a release yet.</p>
        )}
      </Section>
    </div>
  );
}
