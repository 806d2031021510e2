import { Link } from "react-router";
import { AudioPlayer } from "~/components/audio-player";
import type { ReleaseDetail } from "~/modules/catalog/catalog.server";
import { formatDuration, songAudioPath, STORES, TERRITORIES, WORLDWIDE } from "../release-options";
import type { MemberReleaseStatusData } from "../release-routes.server";
import { buttonSecondary, ReleaseStatusTag, Section, useReleaseActionResult } from "./release-page-parts";
import { RejectionReasonsPanel, StatusHistoryList, SubmitPanel, TakedownForm } from "./release-review-panels";

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
