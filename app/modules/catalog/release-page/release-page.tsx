import { Link } from "react-router";
import { ShareButtons } from "~/components/share/share-buttons";
import { StatusTag } from "~/components/status-tag";
import { formatDuration, RELEASE_TYPE_OPTIONS } from "~/modules/catalog/releases/release-options";
import type { ReleasePageData } from "./release-page.server";

/** The public face of a release: what a fan or collaborator sees (see release-page.server.ts). */

const TAG_LABELS: Record<string, { label: string; status: string }> = {
  upcoming_release: { label: "Upcoming release", status: "pending" },
  published: { label: "Published", status: "published" },
  tag_ready_for_distribution: { label: "Ready for distribution", status: "approved" },
  takedown_requested: { label: "Takedown requested", status: "pending" },
};

function longDate(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
}

function ExplicitTag() {
  return (
    <abbr
      title="Explicit"
      aria-label="Explicit"
      className="ml-2 inline-flex size-5 items-center justify-center rounded-sm bg-stone-700 text-[10px] font-bold text-white no-underline"
    >
      E
    </abbr>
  );
}

export function ReleasePage({ loaderData }: { loaderData: ReleasePageData }) {
  const { release, cover, tracks, totalSeconds, artistPath, managePath, reviewPath, share } = loaderData;
  const tag = TAG_LABELS[release.tag];
  const producers = [...new Set(tracks.flatMap((t) => t.producers))];
  const featured = [...new Set(tracks.flatMap((t) => t.featured))];
  return (
    <article className="mx-auto w-full max-w-4xl space-y-6">
      <header className="flex flex-col gap-6 sm:flex-row">
        <div className="aspect-square w-full max-w-xs shrink-0 overflow-hidden rounded-lg border border-stone-200 bg-gradient-to-br from-brand-100 to-stone-200 shadow-sm sm:w-64">
          {cover ? (
            <img src={cover} alt={`Cover art of ${release.title}`} width={600} height={600} className="size-full object-cover" />
          ) : (
            <div role="img" aria-label="No cover art yet" className="flex size-full items-center justify-center p-4 text-center text-sm text-stone-600">
              {release.title}
            </div>
          )}
        </div>
        <div className="min-w-0 flex-1 space-y-2">
          <p className="text-sm font-medium text-stone-500">{RELEASE_TYPE_OPTIONS.find((o) => o.value === release.type)?.label}</p>
          <h1 className="text-3xl font-semibold tracking-tight break-words">
            {release.title}
            {release.parentalAdvisory ? <ExplicitTag /> : null}
          </h1>
          <p className="text-lg">
            <Link to={artistPath} className="font-medium text-brand-900 hover:underline">
              {release.artist.name}
            </Link>
            {featured.length ? <span className="text-stone-600"> feat. {featured.join(", ")}</span> : null}
          </p>
          <p className="flex flex-wrap items-center gap-2 text-sm text-stone-600">
            {tag ? <StatusTag status={tag.status} label={tag.label} /> : <StatusTag status={release.status} />}
            {release.releaseDate ? (
              <span>
                {release.tag === "upcoming_release" ? "Out" : "Released"} {longDate(release.releaseDate)}
              </span>
            ) : null}
            <span aria-hidden="true">·</span>
            <span>
              {tracks.length === 1 ? "1 track" : `${tracks.length} tracks`}, {formatDuration(totalSeconds)}
            </span>
          </p>
          {release.primaryGenre ? <p className="text-sm text-stone-600">{release.primaryGenre}</p> : null}
          {managePath || reviewPath ? (
            <p className="pt-2">
              <Link to={(managePath ?? reviewPath)!} className="text-sm font-medium text-brand-900 underline">
                {managePath ? "Manage this release" : "Review this release"}
              </Link>
            </p>
          ) : null}
        </div>
      </header>

      <section aria-labelledby="tracklist-heading" className="rounded-lg border border-stone-200 bg-white shadow-sm">
        <h2 id="tracklist-heading" className="px-4 pt-4 text-lg font-semibold sm:px-6">
          Tracklist
        </h2>
        {tracks.length ? (
          <ol className="mt-2 divide-y divide-stone-200" aria-label="Tracklist">
            {tracks.map((track) => (
              <li key={track.position} className="flex items-start gap-3 px-4 py-3 sm:px-6">
                <span className="w-6 shrink-0 text-right text-sm text-stone-500 tabular-nums">{track.position}</span>
                <span className="min-w-0 flex-1">
                  <span className="font-medium break-words">
                    {track.title}
                    {track.version ? <span className="font-normal text-stone-600"> ({track.version})</span> : null}
                  </span>
                  {track.explicit ? <ExplicitTag /> : null}
                  {track.featured.length ? <span className="block text-sm text-stone-600">feat. {track.featured.join(", ")}</span> : null}
                  {track.writers.length || track.producers.length ? (
                    <span className="block text-xs text-stone-500">
                      {track.writers.length ? `Written by ${track.writers.join(", ")}` : ""}
                      {track.writers.length && track.producers.length ? " · " : ""}
                      {track.producers.length ? `Produced by ${track.producers.join(", ")}` : ""}
                      {track.isCover ? " · Cover" : ""}
                    </span>
                  ) : null}
                </span>
                <span className="shrink-0 text-sm text-stone-600 tabular-nums">{formatDuration(track.durationSeconds)}</span>
              </li>
            ))}
          </ol>
        ) : (
          <p className="px-4 py-3 text-sm text-stone-600 sm:px-6">No tracks yet.</p>
        )}
      </section>

      <section aria-labelledby="credits-heading" className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="credits-heading" className="text-lg font-semibold">
          Credits
        </h2>
        <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          {producers.length ? (
            <>
              <dt className="text-stone-500">Produced by</dt>
              <dd>{producers.join(", ")}</dd>
            </>
          ) : null}
          {featured.length ? (
            <>
              <dt className="text-stone-500">Featuring</dt>
              <dd>{featured.join(", ")}</dd>
            </>
          ) : null}
          {release.label ? (
            <>
              <dt className="text-stone-500">Label</dt>
              <dd>{release.label}</dd>
            </>
          ) : null}
          {release.pLine ? (
            <>
              <dt className="text-stone-500">℗</dt>
              <dd>{release.pLine}</dd>
            </>
          ) : null}
          {release.cLine ? (
            <>
              <dt className="text-stone-500">©</dt>
              <dd>{release.cLine}</dd>
            </>
          ) : null}
          {release.previousReleaseDate ? (
            <>
              <dt className="text-stone-500">First released</dt>
              <dd>{longDate(release.previousReleaseDate)}</dd>
            </>
          ) : null}
          {release.upc ? (
            <>
              <dt className="text-stone-500">UPC</dt>
              <dd className="tabular-nums">{release.upc}</dd>
            </>
          ) : null}
        </dl>
      </section>

      <section className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
        <ShareButtons {...share} heading={`Share ${release.title}`} />
      </section>
    </article>
  );
}
