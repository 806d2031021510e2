import { Link } from "react-router";
import { RELEASE_STATUS_LABELS } from "../release-options";
import { ReleaseSplitsSummary } from "~/modules/splits/shares-section";
import type { MemberReleaseProfileData } from "../release-routes.server";
import { buttonSecondary, ReleaseStatusTag, Section, useReleaseActionResult } from "./release-page-parts";
import { ReleaseDetailsForm } from "./release-details-form";
import { ReleaseStoresForm } from "./release-stores-form";
import { ReleaseTracksEditor } from "./release-tracks-editor";
import { ReleaseCoverForm } from "./release-cover-form";
import { RejectionReasonsPanel, SubmitPanel } from "./release-review-panels";

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
