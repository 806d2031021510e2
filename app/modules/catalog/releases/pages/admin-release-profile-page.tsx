import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { FieldErrors, FormAlert, SubmitButton, TextareaField } from "~/components/forms";
import { DeliveriesSection } from "~/modules/catalog/delivery/delivery-section";
import { formatDuration, RELEASE_TYPE_OPTIONS, REVIEW_FIELDS, songAudioPath, STORES, WORLDWIDE } from "../release-options";
import { ReleaseSplitsSummary } from "~/modules/splits/shares-section";
import type { AdminReleaseProfileData } from "../release-routes.server";
import { RejectSchema } from "../release-schemas";
import { buttonDanger, buttonPrimary, buttonSecondary, ReleaseStatusTag, type Result, Section, useReleaseActionResult } from "./release-page-parts";
import { PreflightList, RejectionReasonsPanel, StatusHistoryList, TakedownForm } from "./release-review-panels";

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
